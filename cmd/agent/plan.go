package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// step is one tool call of a plan.
type step struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"` // a JSON object; empty: none
}

// String is the step as the agent prints it: server/tool {arguments}.
func (s step) String() string {
	if len(s.Arguments) == 0 {
		return s.Server + "/" + s.Tool
	}
	return s.Server + "/" + s.Tool + " " + string(s.Arguments)
}

// loadPlan reads a plan file: a JSON array of steps when it starts with
// '[', else one step a line.
func loadPlan(path string) ([]step, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var steps []step
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		steps, err = parseJSONPlan(trimmed)
	} else {
		steps, err = parseLinePlan(string(data))
	}
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", path, err)
	}
	return steps, nil
}

// parseJSONPlan parses a JSON array of steps.
func parseJSONPlan(data []byte) ([]step, error) {
	steps := []step{}
	if err := json.Unmarshal(data, &steps); err != nil {
		return nil, err
	}
	for i, s := range steps {
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	return steps, nil
}

// parseLinePlan parses "server tool {json}" lines; blank lines and lines
// starting with # are skipped.
func parseLinePlan(text string) ([]step, error) {
	steps := []step{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		server, rest, _ := strings.Cut(line, " ")
		tool, args, _ := strings.Cut(strings.TrimSpace(rest), " ")
		s := step{Server: server, Tool: tool}
		if args = strings.TrimSpace(args); args != "" {
			s.Arguments = json.RawMessage(args)
		}
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		steps = append(steps, s)
	}
	return steps, nil
}

// check reports what is wrong with a step as written.
func (s step) check() error {
	if s.Server == "" || s.Tool == "" {
		return fmt.Errorf("a step needs a server and a tool")
	}
	if len(s.Arguments) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(s.Arguments, &obj); err != nil || obj == nil {
		return fmt.Errorf("the arguments of %s/%s are not a JSON object", s.Server, s.Tool)
	}
	return nil
}
