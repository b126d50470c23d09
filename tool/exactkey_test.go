package tool_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/calltest"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
)

type keyItem struct {
	Name string `json:"name"`
}

type keyArgs struct {
	Text  string             `json:"text"`
	Mode  string             `json:"mode,omitempty"`
	Opts  *keyOpts           `json:"opts,omitempty"`
	Items []keyItem          `json:"items,omitempty"`
	ByID  map[string]keyItem `json:"byID,omitempty"`
	Upper int                `json:"A,omitempty"`
	Lower int                `json:"a,omitempty"`
	Kind  string             `json:"kind,omitempty"`
}

type keyOpts struct {
	Depth int      `json:"depth"`
	Inner keyInner `json:"inner"`
}

type keyInner struct {
	Flag bool `json:"flag"`
}

// keyTools returns the same typed tool with a strict inferred schema, a
// relaxed one and a given one, and a pointer to the arguments it last
// received (nil until it runs).
func keyTools() (map[string]tool.Tool, **keyArgs) {
	got := new(*keyArgs)
	fn := func(_ context.Context, in keyArgs) (*tool.Result, error) {
		*got = &in
		return tool.TextResult("ran"), nil
	}
	return map[string]tool.Tool{
		"strict":  tool.New("keys", "", fn),
		"relaxed": tool.New("keys", "", fn, tool.AllowAdditionalProperties()),
		"given":   tool.New("keys", "", fn, tool.WithInputSchema(json.RawMessage(`{"type":"object"}`))),
	}, got
}

// A key that names a member only when case is ignored is refused as an
// unknown property, at any depth and in the same words, whether the schema
// is strict, relaxed or given; it never fills the member.
func TestExactKeys(t *testing.T) {
	refused := func(ptrs ...string) string {
		var b strings.Builder
		b.WriteString("invalid arguments for tool keys:")
		for _, p := range ptrs {
			fmt.Fprintf(&b, "\n- %s: additional property is not allowed (additionalProperties)", p)
		}
		return b.String()
	}
	missing := "invalid arguments for tool keys:\n- (root): the required property \"text\" is missing (required)"
	tests := []struct {
		name, args, want string
		per              map[string]string // the answer of a mode, when it differs
	}{
		{"case variant", `{"text":"x","Mode":"m"}`, refused("/Mode"), nil},
		{"case variant next to the key", `{"text":"x","TEXT":"y"}`, refused("/TEXT"), nil},
		{"case variant of a missing member", `{"Text":"x"}`, missing,
			map[string]string{"strict": missing + "\n- /Text: additional property is not allowed (additionalProperties)", "given": refused("/Text")}},
		{"escaped case variant", `{"text":"x","T\u0065xt":"y"}`, refused("/Text"), nil},
		{"two case variants", `{"text":"x","mode":"a","MODE":"b","Mode":"c"}`, refused("/MODE", "/Mode"), nil},
		{"Unicode case folding", `{"text":"x","\u212aind":"k"}`, refused("/\u212aind"), nil},
		{"nested struct", `{"text":"x","opts":{"depth":1,"Depth":2,"inner":{"flag":true,"FLAG":false}}}`,
			refused("/opts/Depth", "/opts/inner/FLAG"), nil},
		{"slice of structs", `{"text":"x","items":[{"name":"a"},{"name":"b","Name":"c"}]}`, refused("/items/1/Name"), nil},
		{"map of structs", `{"text":"x","byID":{"k/1":{"name":"b","NAME":"c"}}}`, refused("/byID/k~11/NAME"), nil},
		{"members differing in case are both exact", `{"text":"x","A":1,"a":2}`, "ran", nil},
		{"unknown key", `{"text":"x","extra":1}`, "ran",
			map[string]string{"strict": "invalid arguments for tool keys:\n- /extra: additional property is not allowed (additionalProperties)"}},
	}
	for _, tt := range tests {
		tools, got := keyTools()
		for mode, tl := range tools {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				*got = nil
				res, err := call(t, tl, tt.args)
				if err != nil {
					t.Fatal(err)
				}
				want := tt.want
				if w, ok := tt.per[mode]; ok {
					want = w
				}
				if text(res) != want || res.IsError != (want != "ran") {
					t.Errorf("\n got %q (isError %v)\nwant %q", text(res), res.IsError, want)
				}
				if want != "ran" && *got != nil {
					t.Errorf("the handler ran with %+v", **got)
				}
			})
		}
	}
	tools, got := keyTools()
	if res, _ := call(t, tools["relaxed"], `{"text":"x","A":1,"a":2}`); res.IsError || *got == nil || (*got).Upper != 1 || (*got).Lower != 2 {
		t.Errorf("exact keys: %q", text(res))
	}
}

// A schema that accepts every object lets a repeated key through to the
// check, which names it once.
func TestExactKeysRepeated(t *testing.T) {
	tools, got := keyTools()
	res, err := call(t, tools["given"], `{"text":"x","items":[{"name":"a","NAME":"b","NAME":"c"}],"Text":"y","Text":"z"}`)
	want := "invalid arguments for tool keys:\n- /Text: additional property is not allowed (additionalProperties)\n" +
		"- /items/0/NAME: additional property is not allowed (additionalProperties)"
	if err != nil || text(res) != want || *got != nil {
		t.Errorf("\n got %q, %v\nwant %q", text(res), err, want)
	}
}

// Past schema.MaxViolations refused keys, the list says how many more.
func TestExactKeysCapped(t *testing.T) {
	tools, _ := keyTools()
	var b strings.Builder
	b.WriteString(`{"text":"x","items":[`)
	for i := range 25 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"NAME":"n"}`)
	}
	b.WriteString("]}")
	res, err := call(t, tools["given"], b.String())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text(res), "\n")
	if len(lines) != 22 || lines[1] != "- /items/0/NAME: additional property is not allowed (additionalProperties)" || lines[21] != "- … and 5 more" {
		t.Errorf("got %d lines: %q … %q", len(lines), lines[1], lines[len(lines)-1])
	}
}

// DecodeArgs, which probe.WrapTyped decodes with, refuses the same keys.
func TestDecodeArgsExactKeys(t *testing.T) {
	if _, err := tool.DecodeArgs[keyArgs]("keys", json.RawMessage(`{"text":"x","opts":{"inner":{"Flag":true}}}`)); err == nil ||
		err.Error() != "invalid arguments for tool keys:\n- /opts/inner/Flag: additional property is not allowed (additionalProperties)" {
		t.Errorf("DecodeArgs: %v", err)
	}
	in, err := tool.DecodeArgs[keyArgs]("keys", json.RawMessage(`{"text":"x","unknown":1}`))
	if err != nil || in.Text != "x" {
		t.Errorf("DecodeArgs = %+v, %v", in, err)
	}

	var seen string
	base := tool.New("keys", "", noop[keyArgs, *tool.Result](), tool.AllowAdditionalProperties())
	wrapped := probe.WrapTyped(base, func(_ context.Context, in keyArgs) (probe.Patterns, error) {
		seen = in.Text
		return probe.Patterns{}, nil
	})
	ctx := calltest.WithMeta(context.Background(), `{"`+probe.PermissionPatternsKey+`":true}`)
	res, err := wrapped.Handler(ctx, json.RawMessage(`{"Text":"x"}`))
	if err == nil || seen != "" || !strings.Contains(err.Error(), "- /Text: additional property is not allowed (additionalProperties)") {
		t.Errorf("probe of a case variant: %v, %v, pattern function saw %q", res, err, seen)
	}
}
