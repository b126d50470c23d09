package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// tally counts how the steps went.
type tally struct{ ok, toolErrors, refused, failed int }

// follow runs the steps in order, printing each call and what came of it,
// and returns errStepsFailed when some got no answer.
func (a *agent) follow(ctx context.Context, steps []step) error {
	fmt.Fprintf(a.out, "plan: %d steps\n", len(steps))
	var t tally
	for _, s := range steps {
		fmt.Fprintln(a.out, ">", s)
		a.call(ctx, s, &t)
	}
	fmt.Fprintf(a.out, "done: %d ok, %d tool errors, %d refused, %d failed\n", t.ok, t.toolErrors, t.refused, t.failed)
	if t.failed > 0 {
		return errStepsFailed
	}
	return nil
}

// call runs one step and prints its result, refusal or error.
func (a *agent) call(ctx context.Context, s step, t *tally) {
	srv := a.byName[s.Server]
	if srv == nil {
		fmt.Fprintf(a.out, "  error: no server named %q\n", s.Server)
		t.failed++
		return
	}
	ctx, cancel := context.WithTimeout(ctx, a.stepTimeout)
	defer cancel()
	var args any
	if len(s.Arguments) > 0 {
		args = s.Arguments
	}
	res, err := srv.c.CallTool(ctx, s.Tool, args)
	var f *client.Finding
	switch {
	case errors.As(err, &f):
		fmt.Fprintf(a.out, "  refused by the %s gate: %s: %s\n", f.Gate, f.Rule, f.Message)
		t.refused++
	case err != nil:
		fmt.Fprintf(a.out, "  error: %v\n", err)
		t.failed++
	case res.IsError != nil && *res.IsError:
		fmt.Fprintln(a.out, "  the tool reported an error:")
		printContent(a.out, res)
		t.toolErrors++
	default:
		printContent(a.out, res)
		t.ok++
	}
}

// printContent prints a result's text content, a line for each block of
// another kind, and its structured content when it has no text.
func printContent(w io.Writer, r *protocol.CallToolResult) {
	text := false
	for _, b := range r.Content {
		switch {
		case b.Text != nil:
			text = true
			for line := range strings.Lines(b.Text.Text) {
				fmt.Fprintln(w, "  "+strings.TrimRight(line, "\n"))
			}
		case b.Image != nil:
			fmt.Fprintf(w, "  [image %s, %d base64 characters]\n", b.Image.MimeType, len(b.Image.Data))
		case b.Audio != nil:
			fmt.Fprintf(w, "  [audio %s, %d base64 characters]\n", b.Audio.MimeType, len(b.Audio.Data))
		case b.ResourceLink != nil:
			fmt.Fprintf(w, "  [link %s]\n", b.ResourceLink.URI)
		case b.Resource != nil:
			fmt.Fprintf(w, "  [resource %s]\n", b.Resource.Resource.URI())
		}
	}
	if !text && len(r.StructuredContent) > 0 {
		fmt.Fprintln(w, "  "+string(r.StructuredContent))
	}
}

// lockedWriter serialises writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p whole under the lock.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
