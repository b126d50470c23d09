package probe_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
)

func guarded() *mcp.Options {
	return &mcp.Options{ToolMiddleware: []tool.Middleware{probe.Guard()}}
}

func probeParams(name, args string) string {
	return fmt.Sprintf(`{"name":%q,"arguments":%s,"_meta":{"forge.permission_patterns":true}}`, name, args)
}

// A probe runs the pattern function instead of the handler: no count, no
// file; the real call afterwards does both.
func TestProbeNeverRunsSideEffects(t *testing.T) {
	tc := newTouch(t)
	s := serve(t, guarded(), tc.tool())

	for _, meta := range []string{
		`{"forge.permission_patterns":true}`,
		`{"progressToken":"p1","forge.permission_patterns":true}`,
		`{"forge\u002epermission_patterns":true}`,
	} {
		got := s.call(`{"name":"touch","arguments":{"path":"./notes/../a.txt"},"_meta":` + meta + `}`)
		sameJSON(t, "probe reply with _meta "+meta, []byte(`{"content":[],"_meta":{"forge.patterns":["write:a.txt"],"forge.always":["exec:git"]}}`), got)
	}
	if n := tc.runs.Load(); n != 0 {
		t.Fatalf("the handler ran %d times during probes", n)
	}
	if tc.exists("a.txt") {
		t.Fatal("a probe wrote the file")
	}
	if n := tc.probes.Load(); n != 3 {
		t.Errorf("the pattern function ran %d times, want 3", n)
	}

	for i, params := range []string{
		`{"name":"touch","arguments":{"path":"a.txt"}}`,
		`{"name":"touch","arguments":{"path":"a.txt"},"_meta":{"forge.permission_patterns":false}}`,
	} {
		sameJSON(t, "real call", []byte(`{"content":[{"type":"text","text":"touched a.txt"}]}`), s.call(params))
		if n := tc.runs.Load(); n != int64(i+1) {
			t.Errorf("after real call %d the handler ran %d times", i+1, n)
		}
	}
	if !tc.exists("a.txt") {
		t.Error("the real call did not write the file")
	}
	if n := tc.probes.Load(); n != 3 {
		t.Errorf("real calls ran the pattern function (%d runs, want 3)", n)
	}
}

// The same arguments give the same reply, byte for byte.
func TestProbeSameArgumentsSameReply(t *testing.T) {
	tc := newTouch(t)
	s := serve(t, guarded(), tc.tool())
	first := s.call(probeParams("touch", `{"path":"d/e.txt"}`))
	for range 5 {
		if again := s.call(probeParams("touch", `{"path":"d/e.txt"}`)); string(again) != string(first) {
			t.Fatalf("reply changed:\n%s\n%s", first, again)
		}
	}
}

// Invalid arguments are refused by the server's validation before the
// pattern function could answer: the probe gets exactly the isError result
// of the real call, and neither the handler nor the pattern function runs.
func TestProbeInvalidArgumentsSameAsRealCall(t *testing.T) {
	tc := newTouch(t)
	s := serve(t, guarded(), tc.tool())
	for _, args := range []string{
		`{}`,
		`{"path":5}`,
		`{"path":""}`,
		`{"path":"a.txt","mode":"append"}`,
	} {
		t.Run(args, func(t *testing.T) {
			real := s.call(`{"name":"touch","arguments":` + args + `}`)
			probed := s.call(probeParams("touch", args))
			sameJSON(t, "probe vs real call", real, probed)
			var res struct {
				IsError bool            `json:"isError"`
				Meta    json.RawMessage `json:"_meta"`
			}
			if err := json.Unmarshal(probed, &res); err != nil {
				t.Fatal(err)
			}
			if !res.IsError || res.Meta != nil {
				t.Errorf("probe of invalid arguments = %s; want an isError result without _meta", probed)
			}
		})
	}
	if r, p := tc.runs.Load(), tc.probes.Load(); r != 0 || p != 0 {
		t.Errorf("with invalid arguments the handler ran %d times and the pattern function %d times", r, p)
	}
}

// A path that leaves the root is an isError result, never a pattern, and
// its text does not reveal the root.
func TestProbeEscapeIsError(t *testing.T) {
	tc := newTouch(t)
	s := serve(t, guarded(), tc.tool())
	for _, p := range []string{"../outside.txt", "a/../../x", "/etc/passwd"} {
		got := s.call(probeParams("touch", fmt.Sprintf(`{"path":%q}`, p)))
		var res struct {
			Content []struct{ Text string } `json:"content"`
			IsError bool                    `json:"isError"`
			Meta    json.RawMessage         `json:"_meta"`
		}
		if err := json.Unmarshal(got, &res); err != nil {
			t.Fatal(err)
		}
		if !res.IsError || res.Meta != nil || len(res.Content) != 1 {
			t.Fatalf("probe of %q = %s; want an isError result without patterns", p, got)
		}
		if !strings.Contains(res.Content[0].Text, "outside the server's root directory") || strings.Contains(res.Content[0].Text, tc.dir) {
			t.Errorf("escape message = %q", res.Content[0].Text)
		}
	}
	if n := tc.runs.Load(); n != 0 {
		t.Errorf("the handler ran %d times", n)
	}
}

// Guard refuses a probe to a tool without support, with -32602 naming the
// tool, and the tool does not run; ordinary calls go through.
func TestGuardRefusesUnsupportedTool(t *testing.T) {
	var c counter
	tc := newTouch(t)
	s := serve(t, guarded(), c.tool(), tc.tool())

	resp := s.request("tools/call", probeParams("count", `{}`))
	if resp.Error == nil || resp.Error.Code != jsonrpc.CodeInvalidParams ||
		!strings.Contains(resp.Error.Message, `tool "count" does not support permission probing`) {
		t.Fatalf("probe of an unsupported tool answered %+v, result %s", resp.Error, resp.Result)
	}
	if n := c.runs.Load(); n != 0 {
		t.Fatalf("the unsupported tool ran %d times on a probe", n)
	}
	sameJSON(t, "ordinary call", []byte(`{"content":[{"type":"text","text":"counted"}]}`), s.call(`{"name":"count","arguments":{}}`))
	if n := c.runs.Load(); n != 1 {
		t.Errorf("the ordinary call ran the tool %d times", n)
	}
}

// A probe flag that is neither true nor false is refused for every tool,
// and nothing runs.
func TestBadProbeFlagRefused(t *testing.T) {
	var c counter
	tc := newTouch(t)
	s := serve(t, guarded(), c.tool(), tc.tool())
	for _, flag := range []string{`"true"`, `1`, `null`, `{}`} {
		for _, call := range []string{`"name":"count","arguments":{}`, `"name":"touch","arguments":{"path":"a.txt"}`} {
			resp := s.request("tools/call", `{`+call+`,"_meta":{"forge.permission_patterns":`+flag+`}}`)
			if resp.Error == nil || resp.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(resp.Error.Message, "must be true") {
				t.Errorf("flag %s, call %s: got %+v, result %s; want -32602", flag, call, resp.Error, resp.Result)
			}
		}
	}
	if c.runs.Load() != 0 || tc.runs.Load() != 0 || tc.probes.Load() != 0 {
		t.Errorf("a bad flag ran something: count %d, touch %d, patterns %d", c.runs.Load(), tc.runs.Load(), tc.probes.Load())
	}
}

// A key that differs from the probe key only in case or surrounding space
// is refused for every tool, naming the exact key, and nothing runs.
func TestNearMissKeyRefused(t *testing.T) {
	var c counter
	tc := newTouch(t)
	s := serve(t, guarded(), c.tool(), tc.tool())
	for _, key := range []string{`Forge.permission_patterns`, `FORGE.PERMISSION_PATTERNS`, ` forge.permission_patterns `, `\u0046orge\u002epermission_patterns`} {
		for _, call := range []string{`"name":"count","arguments":{}`, `"name":"touch","arguments":{"path":"a.txt"}`} {
			for _, flag := range []string{`true`, `false`} {
				resp := s.request("tools/call", `{`+call+`,"_meta":{"`+key+`":`+flag+`}}`)
				if resp.Error == nil || resp.Error.Code != jsonrpc.CodeInvalidParams ||
					!strings.Contains(resp.Error.Message, `is not "forge.permission_patterns"`) {
					t.Errorf("key %q, call %s: got %+v, result %s; want -32602 naming the key", key, call, resp.Error, resp.Result)
				}
			}
		}
	}
	if c.runs.Load() != 0 || tc.runs.Load() != 0 || tc.probes.Load() != 0 || tc.exists("a.txt") {
		t.Errorf("a near miss ran something: count %d, touch %d, patterns %d", c.runs.Load(), tc.runs.Load(), tc.probes.Load())
	}
}

// tools/list advertises support on wrapped tools only, keeping their other
// _meta keys.
func TestToolsListAdvertisesSupport(t *testing.T) {
	var c counter
	tc := newTouch(t)
	s := serve(t, guarded(), c.tool(), tc.tool())
	resp := s.request("tools/list", `{}`)
	var list struct {
		Tools []struct {
			Name string         `json:"name"`
			Meta map[string]any `json:"_meta"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(resp.Result, &list); err != nil || len(list.Tools) != 2 {
		t.Fatalf("tools/list = %s (%v)", resp.Result, err)
	}
	if list.Tools[0].Meta != nil {
		t.Errorf("count advertises _meta %v", list.Tools[0].Meta)
	}
	want := map[string]any{probe.SupportsKey: true, "example.com/owner": "tests"}
	if fmt.Sprint(list.Tools[1].Meta) != fmt.Sprint(want) {
		t.Errorf("touch _meta = %v, want %v", list.Tools[1].Meta, want)
	}
}

// A tool with an output schema answers probes without breaking its
// contract: the reply is a MetaResult.
func TestProbeToolWithOutputSchema(t *testing.T) {
	var runs int
	base := tool.Tool{
		Name:         "fetch",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"status":{"type":"integer"}},"required":["status"]}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			runs++
			return tool.StructuredResult(map[string]int{"status": 200})
		},
	}
	type in struct {
		URL string `json:"url"`
	}
	w := probe.WrapTyped(base, func(_ context.Context, a in) (probe.Patterns, error) {
		p, err := probe.URL(a.URL)
		return probe.Patterns{Args: []probe.Pattern{p}}, err
	})
	s := serve(t, guarded(), w)
	got := s.call(probeParams("fetch", `{"url":"https://API.example.com/v1"}`))
	sameJSON(t, "probe reply", []byte(`{"content":[],"_meta":{"forge.patterns":["net:api.example.com:443"],"forge.always":[]}}`), got)
	sameJSON(t, "real call", []byte(`{"content":[{"type":"text","text":"{\"status\":200}"}],"structuredContent":{"status":200}}`),
		s.call(`{"name":"fetch","arguments":{"url":"https://api.example.com/v1"}}`))
	if runs != 1 {
		t.Errorf("handler ran %d times, want 1 (the real call)", runs)
	}
}

// What a pattern function returns is checked: a non-canonical literal
// pattern is an isError result, and a *jsonrpc.Error becomes a JSON-RPC
// error, as from a handler.
func TestPatternFunctionErrors(t *testing.T) {
	base := func(name string) tool.Tool {
		return tool.Tool{Name: name, Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			t.Errorf("%s: the handler ran on a probe", name)
			return nil, nil
		}}
	}
	sneaky := probe.Wrap(base("sneaky"), func(context.Context, json.RawMessage) (probe.Patterns, error) {
		return probe.Patterns{Args: []probe.Pattern{{Verb: probe.Write, Target: "../../etc/passwd"}}}, nil
	})
	rpc := probe.Wrap(base("rpc"), func(context.Context, json.RawMessage) (probe.Patterns, error) {
		return probe.Patterns{}, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "no")
	})
	fixed := probe.Wrap(base("fixed"), probe.Fixed(probe.MustParse("net:example.com:443"), probe.MustParse("exec:git")))
	s := serve(t, guarded(), sneaky, rpc, fixed)

	got := s.call(probeParams("sneaky", `{}`))
	if !strings.Contains(string(got), `"isError":true`) || strings.Contains(string(got), "forge.patterns") {
		t.Errorf("non-canonical pattern: reply %s", got)
	}
	if resp := s.request("tools/call", probeParams("rpc", `{}`)); resp.Error == nil || resp.Error.Message != "no" {
		t.Errorf("jsonrpc error from the pattern function: got %+v", resp)
	}
	sameJSON(t, "fixed", []byte(`{"content":[],"_meta":{"forge.patterns":[],"forge.always":["exec:git","net:example.com:443"]}}`),
		s.call(probeParams("fixed", `{"anything":1}`)))
}

// Wrap copies: the original tool keeps its _meta and its handler.
func TestWrapDoesNotChangeOriginal(t *testing.T) {
	meta := map[string]any{"k": "v"}
	h := func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("orig"), nil }
	orig := tool.Tool{Name: "x", Meta: meta, Handler: h}
	w := probe.Wrap(orig, probe.Fixed())
	if len(orig.Meta) != 1 || probe.Supports(orig) {
		t.Errorf("Wrap changed the original _meta: %v", orig.Meta)
	}
	if !probe.Supports(w) || w.Meta["k"] != "v" {
		t.Errorf("wrapped _meta = %v", w.Meta)
	}
	if probe.Supports(tool.Tool{}) || probe.Supports(tool.Tool{Meta: map[string]any{probe.SupportsKey: true}, Handler: h}) {
		t.Error("Supports accepted a tool Wrap did not build")
	}
	if cp := w; !probe.Supports(cp) {
		t.Error("a copy of a wrapped tool lost its support")
	}
	rewrapped := tool.Tool{Name: "x", Handler: func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
		return w.Handler(ctx, args)
	}}
	if probe.Supports(rewrapped) {
		t.Error("a handler of the user's own that calls a probing one counts as probing")
	}
	if probe.Wrap(tool.Tool{Name: "nohandler"}, probe.Fixed()).Handler != nil {
		t.Error("Wrap invented a handler for a tool without one")
	}
}

func TestWrapPanicsOnNil(t *testing.T) {
	for name, f := range map[string]func(){
		"nil patterns": func() { probe.Wrap(tool.Tool{Name: "x"}, nil) },
		"nil typed":    func() { probe.WrapTyped[struct{}](tool.Tool{Name: "x"}, nil) },
		"nil New":      func() { probe.New[struct{}, int]("x", "", nil, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

type saveArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type saved struct {
	Bytes int `json:"bytes"`
}

// A typed tool built with probe.New: probes answer patterns, invalid
// arguments are refused by the inferred schema exactly as in a real call,
// and only real calls run the handler.
func TestNewTyped(t *testing.T) {
	root, _ := probe.NewRoot(t.TempDir())
	var runs int
	save := probe.New("save", "Saves content to a file.",
		func(_ context.Context, in saveArgs) (saved, error) {
			runs++
			return saved{Bytes: len(in.Content)}, nil
		},
		func(_ context.Context, in saveArgs) (probe.Patterns, error) {
			p, err := root.File(probe.Write, in.Path)
			return probe.Patterns{Args: []probe.Pattern{p}}, err
		})
	s := serve(t, guarded(), save)
	sameJSON(t, "probe", []byte(`{"content":[],"_meta":{"forge.patterns":["write:x/y.txt"],"forge.always":[]}}`),
		s.call(probeParams("save", `{"path":"x//y.txt","content":"hi"}`)))
	for _, bad := range []string{`{"path":"a"}`, `{"path":"a","content":"b","extra":true}`, `{"path":1,"content":"b"}`} {
		real := s.call(`{"name":"save","arguments":` + bad + `}`)
		sameJSON(t, "invalid "+bad, real, s.call(probeParams("save", bad)))
		if !strings.Contains(string(real), `"isError":true`) {
			t.Errorf("invalid arguments %s gave %s", bad, real)
		}
	}
	if runs != 0 {
		t.Fatalf("the handler ran %d times before any valid real call", runs)
	}
	s.call(`{"name":"save","arguments":{"path":"x/y.txt","content":"hi"}}`)
	if runs != 1 {
		t.Errorf("the real call ran the handler %d times", runs)
	}
}

// In the 2026-07-28 era the probe reply is the same, plus what every modern
// result carries: resultType and the serverInfo _meta beside the patterns.
func TestProbeModernEra(t *testing.T) {
	tc := newTouch(t)
	s := serve(t, guarded(), tc.tool())
	got := s.call(`{"name":"touch","arguments":{"path":"m.txt"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"forge.permission_patterns":true}}`)
	var res struct {
		Content    []json.RawMessage          `json:"content"`
		ResultType string                     `json:"resultType"`
		Meta       map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(got, &res); err != nil {
		t.Fatal(err)
	}
	if res.ResultType != "complete" || len(res.Content) != 0 || res.Content == nil ||
		string(res.Meta[probe.PatternsKey]) != `["write:m.txt"]` || string(res.Meta[probe.AlwaysKey]) != `["exec:git"]` || len(res.Meta) != 3 {
		t.Errorf("modern probe reply = %s", got)
	}
	if tc.runs.Load() != 0 || tc.exists("m.txt") {
		t.Error("a modern probe ran the tool")
	}
}

// A probe whose arguments do not decode into the pattern function's type
// gets the typed tool's isError text, in JSON terms: a pointer and the
// value, never a Go type or package name.
func TestWrapTypedDecodeErrorSpeaksJSON(t *testing.T) {
	base := tool.Tool{Name: "resize", Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
		t.Error("the handler ran on a probe")
		return nil, nil
	}}
	type in struct {
		Width int8 `json:"width"`
	}
	w := probe.WrapTyped(base, func(context.Context, in) (probe.Patterns, error) {
		return probe.Patterns{}, nil
	})
	s := serve(t, guarded(), w)
	got := string(s.call(probeParams("resize", `{"width":300}`)))
	if !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "/width: 300") {
		t.Errorf("reply %s, want an isError naming /width and the value", got)
	}
	for _, leak := range []string{"int8", "probe_test", "Go struct", "unmarshal"} {
		if strings.Contains(got, leak) {
			t.Errorf("reply %s names %q", got, leak)
		}
	}
}

// Probe support is state a user cannot fake: a tool that copies the
// advertisement into its _meta by hand still has its probes refused, and
// its handler never runs on one.
func TestForgedAdvertisementDoesNotDisableGuard(t *testing.T) {
	var runs int
	forged := tool.Tool{
		Name: "forged",
		Meta: map[string]any{probe.SupportsKey: true},
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			runs++
			return tool.TextResult("ran"), nil
		},
	}
	if probe.Supports(forged) {
		t.Fatal("Supports is true for a tool that was never wrapped")
	}
	s := serve(t, guarded(), forged)
	resp := s.request("tools/call", probeParams("forged", `{}`))
	if resp.Error == nil || resp.Error.Code != -32602 {
		t.Fatalf("probe to a forged tool: %+v, want -32602", resp)
	}
	if runs != 0 {
		t.Errorf("the handler ran %d times on a probe", runs)
	}
	if w := probe.Wrap(forged, probe.Fixed()); !probe.Supports(w) {
		t.Error("a wrapped tool does not support probing")
	}
}
