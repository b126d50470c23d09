package contract_test

import (
	"errors"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/tool"
)

func TestCheckStructured(t *testing.T) {
	const obj = `{"type":"object","properties":{"accepted":{"type":"boolean"}},"required":["accepted"]}`
	tests := []struct {
		name    string
		out     string // output schema; "" for none
		res     *tool.Result
		wantErr string // "" when the result passes
		wantRaw string // the structured JSON passed on, when it passes
	}{
		{"object", obj, &tool.Result{Structured: json.RawMessage(`{"accepted":true}`)}, "", `{"accepted":true}`},
		{"array", `{"type":"array","items":{"type":"string"}}`, &tool.Result{Structured: []string{"a", "b"}}, "", `["a","b"]`},
		{"string", `{"type":"string","minLength":2}`, &tool.Result{Structured: "ok"}, "", `"ok"`},
		{"number", `{"type":"number","maximum":1}`, &tool.Result{Structured: 0.5}, "", `0.5`},
		{"boolean", `{"type":"boolean"}`, &tool.Result{Structured: false}, "", `false`},
		{"null on purpose", `{"type":"null"}`, &tool.Result{Structured: json.RawMessage("null")}, "", `null`},
		{"raw with spaces trimmed", obj, &tool.Result{Structured: json.RawMessage(" {\"accepted\":true}\n")}, "", `{"accepted":true}`},
		{"Go value marshalled once, unescaped", "", &tool.Result{Structured: map[string]string{"html": "<b>"}}, "", `{"html":"<b>"}`},
		{"isError without structured content", obj, &tool.Result{IsError: true}, "", ""},
		{"isError with conforming content", obj, &tool.Result{IsError: true, Structured: json.RawMessage(`{"accepted":false}`)}, "", `{"accepted":false}`},
		{"meta-only result", obj, tool.MetaResult(map[string]any{"k": "v"}), "", ""},
		{"no schema, no content", "", &tool.Result{}, "", ""},

		{"missing structured content", obj, tool.TextResult("hi"), "structuredContent is missing, but the tool declares an output schema", ""},
		{"schema violation", obj, &tool.Result{Structured: json.RawMessage(`{"accepted":"yes"}`)}, "structuredContent does not match the output schema:\n  - /accepted: \"yes\" should be a boolean, not a string (type)", ""},
		{"isError content is validated too", obj, &tool.Result{IsError: true, Structured: json.RawMessage(`{}`)}, "the required property \"accepted\" is missing (required)", ""},
		{"a nil slice is []", `{"type":"array"}`, &tool.Result{Structured: []string(nil)}, "", `[]`},
		{"a nil map is {}", `{"type":"object"}`, &tool.Result{Structured: map[string]int(nil)}, "", `{}`},
		{"array schema refuses null", `{"type":"array"}`, &tool.Result{Structured: json.RawMessage("null")}, "(root): null should be an array (type)", ""},
		{"not JSON without a schema", "", &tool.Result{Structured: json.RawMessage(`{"a":`)}, "structuredContent is not valid JSON", ""},
		{"not JSON with a schema", obj, &tool.Result{Structured: json.RawMessage(`{"a":`)}, "(json)", ""},
		{"not marshallable", "", &tool.Result{Structured: make(chan int)}, "encoding structured content", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := rawTool("t", "", tt.out)
			got, err := mustCompile(t, tl).Check(tt.res)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("Check passed %+v", tt.res)
				}
				if !errors.Is(err, contract.ErrContract) {
					t.Errorf("error %v does not wrap ErrContract", err)
				}
				if !strings.Contains(text(got), tt.wantErr) {
					t.Errorf("replacement text %q lacks %q", text(got), tt.wantErr)
				}
				if !got.IsError || got.Structured != nil || len(got.Content) != 1 || got == tt.res {
					t.Errorf("replacement is not a fresh isError text result: %+v", got)
				}
				if !strings.HasPrefix(text(got), "tool t returned a result that breaks its contract") {
					t.Errorf("replacement text does not name the tool: %q", text(got))
				}
				return
			}
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if got.IsError != tt.res.IsError || len(got.Content) != len(tt.res.Content) {
				t.Errorf("result changed: %+v -> %+v", tt.res, got)
			}
			if tt.wantRaw == "" {
				if got.Structured != nil {
					t.Errorf("structured = %v, want none", got.Structured)
				}
				return
			}
			raw, ok := got.Structured.(json.RawMessage)
			if !ok || string(raw) != tt.wantRaw {
				t.Errorf("structured = %#v, want raw %s", got.Structured, tt.wantRaw)
			}
		})
	}
}

func TestCheckBlocks(t *testing.T) {
	tl := rawTool("t", "", "")
	res := &tool.Result{Content: []tool.Content{
		tool.NewText("fine"),
		&tool.Image{Data: "@@@@", MimeType: "image/png"},
		tool.NewText("x", tool.Priority(-0.1)),
	}}
	got, err := mustCompile(t, tl).Check(res)
	if err == nil {
		t.Fatal("bad blocks passed")
	}
	want := "tool t returned a result that breaks its contract, so it was not sent (this is a bug in the tool, not in the call):\n" +
		"- content[1]: image: data is not valid base64 (standard alphabet, padded, no line breaks)\n" +
		"- content[2]: annotations.priority: -0.1 is outside [0, 1]"
	if text(got) != want {
		t.Errorf("text:\n got %q\nwant %q", text(got), want)
	}
	if !strings.Contains(err.Error(), "content[1]") || !strings.Contains(err.Error(), "content[2]") {
		t.Errorf("error %q does not name both blocks", err)
	}
	if ok, err := mustCompile(t, tl).Check(nil); err != nil || ok == nil {
		t.Errorf("Check(nil) = %v, %v", ok, err)
	}
}
