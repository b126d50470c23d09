package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// TestEncodeInitializeMatchesMarshal holds the hand-written initialize
// result to json.Marshal's bytes, for every capability the server declares
// in every legacy revision, identities with and without the optional
// fields, and strings that take the fallback.
func TestEncodeInitializeMatchesMarshal(t *testing.T) {
	yes, no := true, false
	capsets := []protocol.ServerCapabilities{
		{},
		{Logging: protocol.Object{}},
		{Logging: protocol.Object{}, Tools: &protocol.ToolsCapability{ListChanged: &yes}},
		{Logging: protocol.Object{}, Completions: protocol.Object{}, Prompts: &protocol.PromptsCapability{ListChanged: &yes},
			Resources: &protocol.ResourcesCapability{Subscribe: &yes, ListChanged: &yes}, Tools: &protocol.ToolsCapability{ListChanged: &yes}},
		{Resources: &protocol.ResourcesCapability{ListChanged: &no}, Tools: &protocol.ToolsCapability{}, Prompts: &protocol.PromptsCapability{}},
		{Logging: protocol.Object{"x": json.RawMessage(`1`)}},                                       // fallback
		{Extensions: map[string]protocol.Object{TasksExtension: {}}},                                // fallback
		{Experimental: map[string]protocol.Object{"e": {}}, Completions: protocol.Object{"y": nil}}, // fallback
	}
	infos := []protocol.Implementation{
		{Name: "s", Version: "1"},
		{Name: "server", Title: "The \"Server\"", Version: "1.2.3", Description: "line one\nline\ttwo\r\\", WebsiteURL: "https://example.com/a?b=c"},
		{Name: "a<b", Version: "x&y"},   // fallback
		{Name: "café", Version: "1"},    // fallback
		{Name: "ctl\x01", Version: "1"}, // fallback
		{Name: "i", Version: "1", Icons: []protocol.Icon{{Src: "https://example.com/i.png"}}}, // fallback
	}
	s := NewServer(Implementation{Name: "x", Version: "1"}, nil)
	for _, version := range []string{protocol.Revision20241105.String(), protocol.Revision20250326.String(), protocol.Revision20250618.String(), protocol.Revision20251125.String()} {
		for ci, caps := range append(capsets, s.capabilities(legacyRev(version))) {
			for ii, info := range infos {
				for si, instructions := range []string{"", "Use the tools.\nThen \"stop\".", "<b>"} {
					res := &protocol.InitializeResult{ProtocolVersion: version, Capabilities: caps, ServerInfo: info, Instructions: instructions}
					plain := (ci < 5 || ci == len(capsets)) && ii < 2 && si < 2
					if _, ok := appendInitialize(nil, res); ok != plain {
						t.Errorf("%s caps %d info %d instructions %d: written by hand %v, want %v", version, ci, ii, si, ok, plain)
					}
					sameAsTyped(t, res)
				}
			}
		}
	}
}

// TestEncodeInitializeEveryCapabilitySet holds the hand-written result to
// the typed encoding (json.Marshal of protocol.InitializeResult) for every
// revision and every combination of the capabilities a server may declare
// (each member absent, empty or with its flags unset, true or false), and
// for the capabilities NewServer declares with every mix of registered
// tools, resources, prompts, completions and task tools.
func TestEncodeInitializeEveryCapabilitySet(t *testing.T) {
	yes, no := true, false
	bools := []*bool{nil, &yes, &no}
	objects := []protocol.Object{nil, {}}
	var tools []*protocol.ToolsCapability
	var prompts []*protocol.PromptsCapability
	var resources []*protocol.ResourcesCapability
	tools, prompts, resources = append(tools, nil), append(prompts, nil), append(resources, nil)
	for _, lc := range bools {
		tools = append(tools, &protocol.ToolsCapability{ListChanged: lc})
		prompts = append(prompts, &protocol.PromptsCapability{ListChanged: lc})
		for _, sub := range bools {
			resources = append(resources, &protocol.ResourcesCapability{Subscribe: sub, ListChanged: lc})
		}
	}
	var capsets []protocol.ServerCapabilities
	for _, logging := range objects {
		for _, completions := range objects {
			for _, ext := range []map[string]protocol.Object{nil, {TasksExtension: {}}} {
				for _, tc := range tools {
					for _, pc := range prompts {
						for _, rc := range resources {
							capsets = append(capsets, protocol.ServerCapabilities{Logging: logging, Completions: completions,
								Extensions: ext, Tools: tc, Prompts: pc, Resources: rc})
						}
					}
				}
			}
		}
	}
	servers := registeredMixes(t)
	for _, r := range protocol.Revisions() {
		sets := capsets
		for _, s := range servers {
			sets = append(sets, s.capabilities(r))
		}
		for _, caps := range sets {
			res := &protocol.InitializeResult{ProtocolVersion: r.String(), Capabilities: caps,
				ServerInfo: servers[0].serverInfo(r), Instructions: "Use the tools."}
			sameAsTyped(t, res)
		}
	}
}

// sameAsTyped fails t when encodeInitialize writes res otherwise than
// the typed encoding does.
func sameAsTyped(t *testing.T, res *protocol.InitializeResult) {
	t.Helper()
	want, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encodeInitialize(res)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s:\n got %s\nwant %s", res.ProtocolVersion, got, want)
	}
}

// registeredMixes are servers with every mix of a tool, a task tool, a
// resource, a prompt and a completion provider registered.
func registeredMixes(t *testing.T) []*Server {
	var out []*Server
	for mask := range 1 << 5 {
		s := NewServer(Implementation{Name: "mix", Title: "Mix", Version: "1", WebsiteURL: "https://example.com"}, nil)
		if mask&1 != 0 {
			s.MustAddTool(tool.New("t", "T.", noTool))
		}
		if mask&2 != 0 {
			if err := s.AddTaskTool(tool.New("task", "Task.", noTool), TaskToolOptions{Support: TaskOptional}); err != nil {
				t.Fatal(err)
			}
		}
		if mask&4 != 0 {
			s.MustAddResource(Resource{URI: "test://r", Name: "r", Read: func(context.Context, string) ([]ResourceContents, error) { return nil, nil }})
		}
		p := Prompt{Name: "p", Arguments: []PromptArgument{{Name: "a"}}, Get: func(context.Context, map[string]string) (*PromptResult, error) { return nil, nil }}
		if mask&16 != 0 {
			p.Complete = map[string]CompleteFunc{"a": CompletePrefix("x")}
		}
		if mask&(8|16) != 0 {
			s.MustAddPrompt(p)
		}
		out = append(out, s)
	}
	return out
}

func noTool(context.Context, struct{}) (*tool.Result, error) { return nil, nil }

// firstInitEnv names, in a child process of BenchmarkInitializeFirst, the
// encoder whose first use it times: "hand" or "typed".
const firstInitEnv = "MCPWIRE_FIRST_INITIALIZE"

// TestInitializeFirstChild is BenchmarkInitializeFirst's child: it
// encodes one initialize result, the first in the process, and prints how
// long that took. Without the variable set it does nothing.
func TestInitializeFirstChild(t *testing.T) {
	how := os.Getenv(firstInitEnv)
	if how == "" {
		t.Skip("run by BenchmarkInitializeFirst")
	}
	yes := true
	res := &protocol.InitializeResult{ProtocolVersion: protocol.Revision20251125.String(),
		Capabilities: protocol.ServerCapabilities{Logging: protocol.Object{}, Tools: &protocol.ToolsCapability{ListChanged: &yes}},
		ServerInfo:   protocol.Implementation{Name: "echo", Version: "1.0.0"}}
	start := time.Now()
	var err error
	if how == "hand" {
		_, err = encodeInitialize(res)
	} else {
		_, err = json.Marshal(res)
	}
	d := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("first-initialize-ns %d\n", d.Nanoseconds())
}

// BenchmarkInitializeFirst times the first initialize result a fresh
// process encodes (what every server start pays), written by hand and
// through the typed encoding (json.Marshal of protocol.InitializeResult,
// whose encoder goccy/go-json builds on first use): each iteration runs
// this test binary once; the metric is the child's own timing.
func BenchmarkInitializeFirst(b *testing.B) {
	for _, how := range []string{"hand", "typed"} {
		b.Run(how, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestInitializeFirstChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), firstInitEnv+"="+how)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				var ns int64
				i := strings.Index(string(out), "first-initialize-ns ")
				if i < 0 {
					b.Fatalf("no timing in %s", out)
				}
				fmt.Sscan(string(out[i+len("first-initialize-ns "):]), &ns)
				total += time.Duration(ns)
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "first-ns/op")
		})
	}
}

// BenchmarkInitializeEncoding encodes an initialize result once its
// encoders are warm, written by hand and through the typed encoding.
func BenchmarkInitializeEncoding(b *testing.B) {
	s := NewServer(Implementation{Name: "echo", Version: "1.0.0"}, nil)
	res := &protocol.InitializeResult{ProtocolVersion: protocol.Revision20251125.String(),
		Capabilities: s.capabilities(protocol.Revision20251125), ServerInfo: s.serverInfo(protocol.Revision20251125)}
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeInitialize(res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(res); err != nil {
				b.Fatal(err)
			}
		}
	})
}
