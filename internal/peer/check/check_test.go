package check

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/review"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// session connects the reviewer to srv over a pipe in era; the test's
// cleanup closes it and waits for Serve.
func session(t *testing.T, srv *mcp.Server, era protocol.Era) *client.Session {
	t.Helper()
	a, b := transport.Pipe(transport.Options{})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), a) }()
	opts := ClientOptions()
	opts.Era = era
	s, err := client.Connect(t.Context(), b, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s
}

// server has a read-only tool that answers, one that waits for its
// context to end, one that outlasts the timeout while it reports
// progress, and one that is not read-only.
func server() *mcp.Server {
	ro := &tool.Annotations{ReadOnlyHint: new(true)}
	srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"},
		&mcp.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ShutdownGrace: 50 * time.Millisecond})
	srv.MustAddTool(tool.New("ping", "Pong.", func(context.Context, struct{}) (string, error) { return "pong", nil }, tool.WithAnnotations(ro)))
	srv.MustAddTool(tool.New("wait", "Waits.", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, tool.WithAnnotations(ro)))
	srv.MustAddTool(tool.New("slow", "Reports progress for longer than the timeout.", func(ctx context.Context, _ struct{}) (string, error) {
		// 8 × 40ms outlasts the 250ms timeout; each gap is far inside it,
		// even on a loaded machine.
		for i := range 8 {
			time.Sleep(40 * time.Millisecond)
			if err := mcp.ReportProgress(ctx, float64(i+1), 8, ""); err != nil {
				return "", err
			}
		}
		return "done", nil
	}, tool.WithAnnotations(ro)))
	srv.MustAddTool(tool.Tool{Name: "reset", Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
		return &tool.Result{Structured: json.RawMessage(`{}`)}, nil // no text mirror
	}})
	return srv
}

// outcomes returns each tool's name:outcome:reason.
func outcomes(rep *Report) []string {
	var out []string
	for _, t := range rep.Tools {
		out = append(out, t.Name+":"+t.Outcome+":"+t.Reason)
	}
	return out
}

// rules returns the rule ids reported, in order, server's first.
func rules(rep *Report) []string {
	var out []string
	for _, p := range rep.Problems {
		out = append(out, p.Rule)
	}
	for _, t := range rep.Tools {
		for _, p := range t.Problems {
			out = append(out, t.Name+":"+p.Rule)
		}
	}
	return out
}

// Run in both eras: the per-call Timeout (restarted by progress), CallAll, the progress steps,
// and the caller's wire problems reported first.
func TestRun(t *testing.T) {
	for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
		t.Run(era.String(), func(t *testing.T) {
			var steps []string
			wire := review.Problem{Gate: GateDiscover, Rule: RuleWire, Message: "stdout"}
			rep := Run(t.Context(), session(t, server(), era), Options{
				CallAll: true, Timeout: 250 * time.Millisecond,
				Progress: func(f string, args ...any) { steps = append(steps, fmt.Sprintf(f, args...)) },
				Wire:     func() []review.Problem { return []review.Problem{wire} },
			})
			wantOutcomes := []string{"ping:success:", "wait:timeout:no answer within 250ms", "slow:success:", "reset:success:"}
			wantRules := []string{RuleWire, "wait:" + RuleCallTimeout, "reset:" + review.RuleStructuredTextMirror}
			if got := outcomes(rep); !slices.Equal(got, wantOutcomes) {
				t.Errorf("outcomes %q, want %q", got, wantOutcomes)
			}
			if got := rules(rep); !slices.Equal(got, wantRules) {
				t.Errorf("rules %q, want %q", got, wantRules)
			}
			if rep.Verdict != Rejected || rep.Exit != ExitRejected || rep.Era != era.String() || rep.Pages["tools"] != 1 {
				t.Errorf("verdict %q, exit %d, era %q, pages %v", rep.Verdict, rep.Exit, rep.Era, rep.Pages)
			}
			wantSteps := []string{"tools/list…", "calling 4 tools…", `  1/4 "ping"`, `  2/4 "wait"`, `  3/4 "slow"`, `  4/4 "reset"`}
			if !slices.Equal(steps, wantSteps) {
				t.Errorf("steps %q, want %q", steps, wantSteps)
			}
		})
	}
}

// Without CallAll only the read-only tools are called; a review that
// outlasts Total is not run, with what it found so far.
func TestRunTotal(t *testing.T) {
	rep := Run(t.Context(), session(t, server(), protocol.Modern), Options{Total: 200 * time.Millisecond})
	want := []string{"ping:success:", "wait:not-called:" + SkipOutOfTime, "slow:not-called:" + SkipOutOfTime, "reset:not-called:" + SkipNotReadOnly}
	if got := outcomes(rep); !slices.Equal(got, want) {
		t.Errorf("outcomes %q, want %q", got, want)
	}
	if f := rep.Failure; f == nil || f.Stage != "review" || !strings.Contains(f.Error, "200ms") || rep.Verdict != NotRun || rep.Exit != ExitNotRun {
		t.Errorf("failure %+v, verdict %q, exit %d", f, rep.Verdict, rep.Exit)
	}
}

// A zero Options has the default bounds.
func TestDefaults(t *testing.T) {
	if o := (Options{}).withDefaults(); o.Timeout != DefaultTimeout || o.Total != DefaultTotal {
		t.Errorf("defaults %v, %v", o.Timeout, o.Total)
	}
}
