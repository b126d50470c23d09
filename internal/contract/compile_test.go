package contract_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/schema"
	"github.com/mcpwire/mcpwire/tool"
)

func rawHandler(context.Context, json.RawMessage) (*tool.Result, error) {
	return tool.TextResult("ok"), nil
}

// rawTool returns a raw-handler tool with the given schemas.
func rawTool(name, in, out string) tool.Tool {
	t := tool.Tool{Name: name, Handler: rawHandler}
	if in != "" {
		t.InputSchema = json.RawMessage(in)
	}
	if out != "" {
		t.OutputSchema = json.RawMessage(out)
	}
	return t
}

// mustCompile compiles tl as registration does, failing the test when it
// does not compile.
func mustCompile(t testing.TB, tl tool.Tool) *contract.Contract {
	t.Helper()
	c, err := contract.Compile(tl, nil)
	if err != nil {
		t.Fatalf("Compile %s: %v", tl.Name, err)
	}
	return c
}

func newServer() *mcp.Server {
	return mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"},
		&mcp.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

func TestCompileRefuses(t *testing.T) {
	long := strings.Repeat("a", 129)
	tests := []struct {
		name     string
		tool     tool.Tool
		wantIs   error  // nil: match the message only
		wantText string // in the error message
	}{
		{"empty name", rawTool("", "", ""), nil, `tool name "" is invalid`},
		{"space in name", rawTool("get weather", "", ""), nil, `tool name "get weather" is invalid`},
		{"comma in name", rawTool("a,b", "", ""), nil, "^[A-Za-z0-9_.-]{1,128}$"},
		{"slash in name", rawTool("a/b", "", ""), nil, "is invalid"},
		{"non-ASCII name", rawTool("héllo", "", ""), nil, "is invalid"},
		{"name too long", rawTool(long, "", ""), nil, "is invalid"},
		{"no handler", tool.Tool{Name: "h"}, nil, `tool "h" has no handler`},
		{"input not JSON", rawTool("t", `{"type":`, ""), schema.ErrInvalidSchema, `tool "t": input schema`},
		{"input structurally invalid", rawTool("t", `{"type":"object","properties":{"a":{"type":"strng"}}}`, ""), schema.ErrInvalidSchema, "/properties/a/type"},
		{"input bad regex", rawTool("t", `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, ""), schema.ErrInvalidSchema, `tool "t": input schema`},
		{"input unresolved $ref", rawTool("t", `{"type":"object","properties":{"a":{"$ref":"#/$defs/nope"}}}`, ""), schema.ErrUnresolvedRef, "#/$defs/nope"},
		{"input unknown dialect", rawTool("t", `{"$schema":"https://example.com/meta","type":"object"}`, ""), schema.ErrUnsupportedDialect, "example.com"},
		{"input root array", rawTool("t", `{"type":"array"}`, ""), nil, `input schema: the root must declare "type": "object"`},
		{"input root untyped", rawTool("t", `{"properties":{}}`, ""), nil, `the root must declare "type": "object"`},
		{"input root type list", rawTool("t", `{"type":["object","null"]}`, ""), nil, `the root must declare "type": "object"`},
		{"input boolean schema", rawTool("t", `true`, ""), nil, `the root must declare "type": "object"`},
		{"output invalid", rawTool("t", "", `{"type":"objekt"}`), schema.ErrInvalidSchema, `tool "t": output schema`},
		{"output unresolved $ref", rawTool("t", "", `{"$ref":"https://example.com/s.json"}`), schema.ErrUnresolvedRef, `tool "t": output schema`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := contract.Compile(tt.tool, nil)
			if err == nil {
				t.Fatal("Compile succeeded")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v is not %v", err, tt.wantIs)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q lacks %q", err, tt.wantText)
			}
			// The server refuses it the same way.
			if err := newServer().AddTool(tt.tool); err == nil || !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("AddTool = %v, want an error containing %q", err, tt.wantText)
			}
		})
	}
}

func TestCompileAccepts(t *testing.T) {
	tests := []struct{ name, in, out string }{
		{"no schemas", "", ""},
		{"2020-12 default dialect", `{"type":"object","prefixItems":[]}`, ""},
		{"explicit draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"a":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/a"}}}`, ""},
		{"explicit 2020-12", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, ""},
		{"array output", "", `{"type":"array","items":{"type":"integer"}}`},
		{"scalar output", "", `{"type":"string"}`},
		{"boolean output schema", "", `true`},
		{"admitted header", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`, ""},
		{"name at the limits", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "t"
			if tt.name == "name at the limits" {
				name = strings.Repeat("A", 64) + "z9_.-" + strings.Repeat("b", 59)
			}
			mustCompile(t, rawTool(name, tt.in, tt.out))
		})
	}
}

func TestCompileHeaderRules(t *testing.T) {
	prop := func(p string) string { return `{"type":"object","properties":{` + p + `}}` }
	tests := []struct {
		name     string
		in, out  string
		opts     []string
		wantRule error
	}{
		{"not a token", prop(`"a":{"type":"string","x-mcp-header":"Bad Name"}`), "", nil, header.ErrName},
		{"empty", prop(`"a":{"type":"string","x-mcp-header":""}`), "", nil, header.ErrName},
		{"control character", prop(`"a":{"type":"string","x-mcp-header":"A\r\nB"}`), "", nil, header.ErrName},
		{"not a string", prop(`"a":{"type":"string","x-mcp-header":7}`), "", nil, header.ErrName},
		{"duplicate, case-insensitive", prop(`"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"REGION"}`), "", nil, header.ErrDuplicate},
		{"number type", prop(`"a":{"type":"number","x-mcp-header":"A"}`), "", nil, header.ErrType},
		{"object type", prop(`"a":{"type":"object","x-mcp-header":"A"}`), "", nil, header.ErrType},
		{"under items", prop(`"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}`), "", nil, header.ErrLocation},
		{"under anyOf", `{"type":"object","anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}`, "", nil, header.ErrLocation},
		{"under if", `{"type":"object","if":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}}`, "", nil, header.ErrLocation},
		{"under $defs", `{"type":"object","$defs":{"d":{"type":"string","x-mcp-header":"A"}},"properties":{"a":{"$ref":"#/$defs/d"}}}`, "", nil, header.ErrLocation},
		{"sensitive property", prop(`"api_key":{"type":"string","x-mcp-header":"Key"}`), "", nil, header.ErrSensitive},
		{"sensitive header", prop(`"a":{"type":"string","x-mcp-header":"X-Auth-Token"}`), "", nil, header.ErrSensitive},
		{"configured sensitive name", prop(`"tenant":{"type":"string","x-mcp-header":"Tenant"}`), "", []string{"tenant"}, header.ErrSensitive},
		{"in the output schema", "", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}`, nil, header.ErrOutput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := rawTool("hdr", tt.in, tt.out)
			tl.SensitiveHeaderNames = tt.opts
			err := newServer().AddTool(tl)
			if !errors.Is(err, tt.wantRule) {
				t.Fatalf("AddTool = %v, want rule %v", err, tt.wantRule)
			}
			if !strings.Contains(err.Error(), `tool "hdr"`) || !strings.Contains(err.Error(), tt.wantRule.Error()) {
				t.Errorf("error %q does not name the tool and the rule", err)
			}
		})
	}
}

func TestSensitiveHeaderNamesRelaxTheList(t *testing.T) {
	in := `{"type":"object","properties":{"session":{"type":"string","x-mcp-header":"Session"}}}`
	if _, err := contract.Compile(rawTool("s", in, ""), nil); !errors.Is(err, header.ErrSensitive) {
		t.Fatalf("default list: Compile = %v, want ErrSensitive", err)
	}
	tl := tool.New("s", "", noop[struct {
		Session string `json:"session"`
	}, *tool.Result](), tool.WithInputSchema(json.RawMessage(in)), tool.WithSensitiveHeaderNames())
	if anns := mustCompile(t, tl).Headers(); len(anns) != 1 || anns[0].Header != "Session" {
		t.Fatalf("Headers = %+v", anns)
	}
}

// A refused tool does not stop the others from loading, and a duplicate
// name is refused.
func TestAddToolIsPerTool(t *testing.T) {
	srv := newServer()
	good1 := rawTool("first", "", "")
	bad := rawTool("bad", `{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}`, "")
	good2 := rawTool("second", "", "")
	dup := rawTool("first", "", "")
	if err := srv.AddTool(good1); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddTool(bad); !errors.Is(err, header.ErrType) {
		t.Errorf("bad tool: AddTool = %v, want ErrType", err)
	}
	if err := srv.AddTool(good2); err != nil {
		t.Fatalf("a good tool after a refused one: %v", err)
	}
	if err := srv.AddTool(dup); !errors.Is(err, mcp.ErrDuplicateTool) || !strings.Contains(err.Error(), `"first"`) {
		t.Errorf("duplicate: AddTool = %v", err)
	}
	for name, want := range map[string]bool{"first": true, "second": true, "bad": false} {
		if got := srv.RemoveTool(name); got != want {
			t.Errorf("registered %q = %v, want %v", name, got, want)
		}
	}
}

func TestMustAddToolPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustAddTool did not panic on a bad tool")
		}
	}()
	newServer().MustAddTool(rawTool("t", `{"type":"string"}`, ""))
}

// The contract keeps its own copy of the descriptor: changing the tool
// after Compile changes nothing.
func TestCompileCopies(t *testing.T) {
	in := []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
	tl := rawTool("t", string(in), "")
	tl.InputSchema = in
	c := mustCompile(t, tl)
	copy(in[len(in)-12:], `"string"}}} `)
	tl.Name = "renamed"
	if _, bad := c.Prepare(json.RawMessage(`{"n":"x"}`)); bad == nil {
		t.Fatal("the changed schema is in use")
	}
	if c.Tool().Name != "t" || string(c.Tool().InputSchema) != `{"type":"object","properties":{"n":{"type":"integer"}}}` {
		t.Errorf("contract's descriptor changed: %q %s", c.Tool().Name, c.Tool().InputSchema)
	}
}

// One contract serves many calls at once (run with -race).
func TestCallConcurrent(t *testing.T) {
	tl := tool.New("add", "", func(_ context.Context, in struct {
		A int `json:"a"`
	}) (struct {
		N int `json:"n"`
	}, error) {
		return struct {
			N int `json:"n"`
		}{in.A}, nil
	})
	c := mustCompile(t, tl)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				out := c.Call(context.Background(), json.RawMessage(`{"a":1}`))
				if out.RPCError != nil || out.Broken != nil || out.Result.IsError {
					t.Error(text(out.Result), out.Broken, out.RPCError)
					return
				}
			}
		})
	}
	wg.Wait()
}

// text returns the text of a result's first block.
func text(r *tool.Result) string {
	if r == nil || len(r.Content) == 0 {
		return ""
	}
	if tb, ok := r.Content[0].(*tool.Text); ok {
		return tb.Text
	}
	return ""
}
func noop[In, Out any]() func(context.Context, In) (Out, error) {
	return func(context.Context, In) (Out, error) {
		var out Out
		return out, nil
	}
}
