package mcptest_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// checkEras are the revisions Check is run in.
var checkEras = []struct {
	name string
	opt  mcptest.Option
}{
	{"2025-06-18", mcptest.WithClient(&client.Options{Era: protocol.Legacy, ProtocolVersion: "2025-06-18"})},
	{"2025-11-25", mcptest.WithClient(&client.Options{Era: protocol.Legacy, ProtocolVersion: "2025-11-25"})},
	{"2026-07-28", mcptest.WithClient(nil)},
}

// finding is the shape of one Check error: the item, the gate, the rule
// and the pointer.
var finding = regexp.MustCompile(`^mcptest\.Check: (.+?): ([a-z]+) ([a-z-]+) at "([^"]*)": .+$`)

// findingsOf returns the item:gate:rule:pointer of each error r holds
// (the recorder of mcptest_test.go), failing t for an error of another
// shape.
func findingsOf(t *testing.T, r *recorder) []string {
	t.Helper()
	var out []string
	for _, e := range r.errors {
		m := finding.FindStringSubmatch(e)
		if m == nil {
			t.Errorf("an error not naming item, gate, rule and pointer: %q", e)
			continue
		}
		out = append(out, m[1]+":"+m[2]+":"+m[3]+":"+m[4])
	}
	return out
}

var readOnly = &tool.Annotations{ReadOnlyHint: new(true)}

// raw is a tool with a raw handler returning res.
func raw(name string, ann *tool.Annotations, outputSchema string, res *tool.Result) tool.Tool {
	t := tool.Tool{Name: name, Description: "A " + name + " tool.", Annotations: ann,
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) { return res, nil }}
	if outputSchema != "" {
		t.OutputSchema = json.RawMessage(outputSchema)
	}
	return t
}

// checkServer returns a quiet server with tools.
func checkServer(tools ...tool.Tool) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "checked", Version: "1"}, &mcp.Options{Logger: quietLogger})
	for _, t := range tools {
		srv.MustAddTool(t)
	}
	return srv
}

// TestCheck runs Check in every era against good and bad servers and
// compares what it reported.
func TestCheck(t *testing.T) {
	mirrorless := &tool.Result{Structured: json.RawMessage(`{"n":1}`)}
	textImage := &tool.Result{Content: []tool.Content{tool.NewImage([]byte("x"), "text/plain")}}
	for _, c := range []struct {
		name string
		srv  func() *mcp.Server
		opts []mcptest.Option
		want []string // item:gate:rule:pointer, in order
	}{
		{name: "everything-like", srv: everything},
		{name: "array output schema, wrapped for 2025 clients", srv: func() *mcp.Server {
			return checkServer(raw("list", readOnly, `{"type":"array"}`, &tool.Result{Structured: json.RawMessage(`[1]`),
				Content: []tool.Content{tool.NewText(`[1]`)}}))
		}},
		{name: "no text mirror", srv: func() *mcp.Server {
			return checkServer(raw("ok", readOnly, "", tool.TextResult("fine")), raw("stats", readOnly, "", mirrorless))
		}, want: []string{`tool "stats":consume:structured-text-mirror:/content`}},
		{name: "image of type text", srv: func() *mcp.Server {
			return checkServer(raw("snap", readOnly, "", textImage))
		}, want: []string{`tool "snap":consume:content-mime:/content/0/mimeType`}},
		{name: "not read-only: not called", srv: func() *mcp.Server {
			return checkServer(raw("stats", nil, "", mirrorless))
		}},
		{name: "not read-only, CallAll", opts: []mcptest.Option{mcptest.CallAll()}, srv: func() *mcp.Server {
			return checkServer(raw("stats", nil, "", mirrorless), raw("snap", nil, "", textImage))
		}, want: []string{`tool "stats":consume:structured-text-mirror:/content`, `tool "snap":consume:content-mime:/content/0/mimeType`}},
	} {
		for _, era := range checkEras {
			t.Run(c.name+"/"+era.name, func(t *testing.T) {
				r := &recorder{TB: t}
				mcptest.Check(r, c.srv(), append([]mcptest.Option{era.opt}, c.opts...)...)
				if got := findingsOf(t, r); !slices.Equal(got, c.want) {
					t.Errorf("findings %q, want %q; errors:\n%q", got, c.want, r.errors)
				}
			})
		}
	}
}

// Check speaks the revision the options name, as the reviewer: the tool
// called sees the version and the client's name.
func TestCheckEra(t *testing.T) {
	for _, era := range checkEras {
		t.Run(era.name, func(t *testing.T) {
			var version, client string
			srv := checkServer(tool.New("who", "Says who asks.", func(ctx context.Context, _ struct{}) (string, error) {
				r := mcp.RequestFrom(ctx)
				var info struct{ Name string }
				json.Unmarshal(r.ClientInfo, &info)
				version, client = r.Revision.String(), info.Name
				return "ok", nil
			}, tool.WithAnnotations(readOnly)))
			mcptest.Check(t, srv, era.opt)
			if version != era.name || client != "mcpwire-check" {
				t.Errorf("the call saw version %q from %q, want %s from mcpwire-check", version, client, era.name)
			}
		})
	}
}

// CheckTimeout bounds each call, and the finding names the option to
// raise, not a flag of the command.
func TestCheckTimeout(t *testing.T) {
	hang := tool.Tool{Name: "hang", Description: "Waits for its context.", Annotations: readOnly,
		Handler: func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}}
	r := &recorder{TB: t}
	mcptest.Check(r, checkServer(hang), mcptest.CheckTimeout(50*time.Millisecond))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "call-timeout") || !strings.Contains(r.errors[0], "50ms (mcptest.CheckTimeout)") {
		t.Errorf("errors %q, want one call-timeout naming mcptest.CheckTimeout", r.errors)
	}
}

// WithClient's answers replace the reviewer's, who declines every
// elicitation; its era alone keeps them.
func TestCheckAnswers(t *testing.T) {
	accept := func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
		return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": []byte("true")}}, nil
	}
	for _, c := range []struct {
		name string
		opts *client.Options
		want string
	}{
		{"reviewer", nil, "decline"},
		{"era only", &client.Options{Era: protocol.Legacy}, "decline"},
		{"modern, test's answer", &client.Options{Elicit: accept}, "accept"},
		{"legacy, test's answer", &client.Options{Era: protocol.Legacy, Elicit: accept}, "accept"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var action string
			srv := checkServer(tool.New("confirm", "Asks the user.", func(ctx context.Context, _ struct{}) (string, error) {
				reply, err := ask.ElicitAs[confirmation](ctx, "Sure?")
				if err != nil {
					return "", err
				}
				action = string(reply.Action)
				return "ok", nil
			}, tool.WithAnnotations(readOnly)))
			mcptest.Check(t, srv, mcptest.WithClient(c.opts))
			if action != c.want {
				t.Errorf("the tool saw %q, want %q", action, c.want)
			}
		})
	}
}
