package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/skill"
)

// The sep-2640-client-* scenarios of the Skills extension: the client
// lists the skills and loads none (no-prefetch), or loads each, checked,
// and reads its other files only once SKILL.md passed (the verify-*
// scenarios, whose SKILL.md fails one check: the refusal names the rule
// on stderr, and the supporting file is never read).
func init() {
	scenarios["sep-2640-client-no-prefetch"] = skills(false)
	for _, name := range []string{"sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"} {
		scenarios[name] = skills(true)
	}
}

// skills lists the server's skills and, with load, loads each one.
func skills(load bool) scenario {
	return func(ctx context.Context, url string, _ scenarioContext) error {
		c, err := client.Connect(ctx, client.HTTP{URL: url}, &client.Options{
			ClientInfo:      protocol.Implementation{Name: "mcpwire-everything-client"},
			Extensions:      []client.Extension{skill.Declare},
			DiscoverTimeout: discoverTimeout,
		})
		if err != nil {
			return fmt.Errorf("connect: %w", err)
		}
		defer c.Close()
		var entries []*skill.Entry
		for e, err := range skill.List(ctx, c) {
			if err != nil {
				return err
			}
			entries = append(entries, e)
		}
		if !load {
			return nil
		}
		var errs []error
		for _, e := range entries {
			errs = append(errs, loadSkill(ctx, c, e))
		}
		return errors.Join(errs...)
	}
}

// loadSkill loads e and, once it passed, reads its other files.
func loadSkill(ctx context.Context, c *client.Client, e *skill.Entry) error {
	sk, err := skill.Load(ctx, c, e)
	if err != nil {
		return err
	}
	root := strings.TrimSuffix(e.URI, "SKILL.md")
	for _, f := range e.Files {
		if f.URI == e.URI {
			continue
		}
		if _, err := sk.ReadFile(ctx, strings.TrimPrefix(f.URI, root)); err != nil {
			return err
		}
	}
	return nil
}
