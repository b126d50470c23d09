package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// defaultCallsPerServer bounds the admitted tools the built-in plan calls
// on each server, and the refused ones it tries.
const defaultCallsPerServer = 3

// listTools lists the tools of every server, namespaced server/tool, with
// what the Admit gate refused and warned of.
func (a *agent) listTools(ctx context.Context) error {
	fmt.Fprintln(a.out, "tools:")
	for _, s := range a.servers {
		for t, err := range s.c.Tools(ctx) {
			if err != nil {
				return fmt.Errorf("listing the tools of %s: %w", s.name, err)
			}
			s.tools = append(s.tools, t)
			fmt.Fprintf(a.out, "  %s/%s: %s\n", s.name, t.Name, firstLine(t.Description))
		}
	}
	for _, s := range a.servers {
		for _, f := range s.c.Findings() {
			if f.Gate != "admit" {
				continue
			}
			what := "warning"
			if f.Refused {
				what = "refused"
				s.refused = append(s.refused, f.Item)
			}
			fmt.Fprintf(a.out, "  %s %s/%s: %s: %s\n", what, s.name, f.Item, f.Rule, f.Message)
		}
	}
	return nil
}

// defaultPlan is the plan when none is given: on each server, up to
// defaultCallsPerServer admitted tools that need no arguments, then as
// many refused tools, to show their refusals.
func (a *agent) defaultPlan() []step {
	var steps []step
	for _, s := range a.servers {
		n := 0
		for _, t := range s.tools {
			if n < defaultCallsPerServer && needsNoArguments(t.InputSchema) {
				steps = append(steps, step{Server: s.name, Tool: t.Name})
				n++
			}
		}
		n = 0
		for _, name := range s.refused {
			if n < defaultCallsPerServer && name != "" && !strings.HasPrefix(name, "#") { // "#3": a tool with no name
				steps = append(steps, step{Server: s.name, Tool: name})
				n++
			}
		}
	}
	return steps
}

// needsNoArguments reports whether an input schema requires no property.
func needsNoArguments(schema json.RawMessage) bool {
	var s struct {
		Required []string `json:"required"`
	}
	return json.Unmarshal(schema, &s) == nil && len(s.Required) == 0
}

// firstLine is the first line of s, clipped to 80 characters.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}
