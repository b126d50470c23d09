package review

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
)

var structuredCases = []ruleCase{
	{name: "structuredContent in 2025-03-26", rev: r1, desc: plainTool, res: `{"content":[{"type":"text","text":"{}"}],"structuredContent":{}}`,
		rule: RuleStructuredRevision, path: "/structuredContent"},
	{name: "array structuredContent in 2025-11-25", rev: r3, desc: plainTool, res: `{"content":[{"type":"text","text":"[1]"}],"structuredContent":[1]}`,
		rule: RuleStructuredRevision, path: "/structuredContent"},
	{name: "null structuredContent in 2025-06-18", rev: r2, desc: plainTool, res: `{"content":[{"type":"text","text":"null"}],"structuredContent":null}`,
		rule: RuleStructuredRevision, path: "/structuredContent"},
	{name: "missing", rev: r3, desc: sumTool, res: `{"content":[{"type":"text","text":"5"}]}`, rule: RuleStructuredMissing, path: "/structuredContent"},
	{name: "missing, isError false", rev: rM, desc: sumTool, res: modern(`{"content":[],"isError":false}`), rule: RuleStructuredMissing, path: "/structuredContent"},
	{name: "schema: wrong type", rev: r3, desc: sumTool, res: `{"content":[{"type":"text","text":"{\"sum\":\"5\"}"}],"structuredContent":{"sum":"5"}}`,
		rule: RuleStructuredSchema, path: "/structuredContent/sum"},
	{name: "schema: required", rev: r2, desc: sumTool, res: `{"content":[{"type":"text","text":"{}"}],"structuredContent":{}}`,
		rule: RuleStructuredSchema, path: "/structuredContent"},
	{name: "schema: isError result too", rev: r3, desc: sumTool, res: `{"content":[{"type":"text","text":"{\"sum\":1.5}"}],"structuredContent":{"sum":1.5},"isError":true}`,
		rule: RuleStructuredSchema, path: "/structuredContent/sum"},
	{name: "schema: array items", rev: rM, desc: listTool, res: modern(`{"content":[{"type":"text","text":"[\"a\",2]"}],"structuredContent":["a",2]}`),
		rule: RuleStructuredSchema, path: "/structuredContent/1"},
	{name: "mirror: none", rev: r3, desc: sumTool, res: `{"content":[{"type":"text","text":"The sum is 5."}],"structuredContent":{"sum":5}}`,
		rule: RuleStructuredTextMirror, path: "/content"},
	{name: "mirror: no content", rev: rM, desc: sumTool, res: modern(`{"content":[],"structuredContent":{"sum":5}}`),
		rule: RuleStructuredTextMirror, path: "/content"},
	{name: "mirror: another value", rev: r3, desc: sumTool, res: `{"content":[{"type":"text","text":"{\"sum\":6}"}],"structuredContent":{"sum":5}}`,
		rule: RuleStructuredTextMirror, path: "/content"},
	{name: "mirror: only in a resource", rev: r3, desc: sumTool, res: `{"content":[{"type":"resource","resource":{"uri":"a:b","text":"{\"sum\":5}"}}],"structuredContent":{"sum":5}}`,
		rule: RuleStructuredTextMirror, path: "/content"},
	{name: "mirror: wrapped value only on 2026-07-28", rev: rM, desc: plainTool, res: modern(`{"content":[{"type":"text","text":"[1]"}],"structuredContent":{"result":[1]}}`),
		rule: RuleStructuredTextMirror, path: "/content"},
	{name: "mirror: wrapper with another member", rev: r3, desc: plainTool, res: `{"content":[{"type":"text","text":"[1]"}],"structuredContent":{"result":[1],"more":true}}`,
		rule: RuleStructuredTextMirror, path: "/content"},
	{name: "mirror: structured null, no text", rev: rM, desc: plainTool, res: modern(`{"content":[{"type":"text","text":"nothing"}],"structuredContent":null}`),
		rule: RuleStructuredTextMirror, path: "/content"},
}

func TestStructuredRules(t *testing.T) {
	for _, c := range structuredCases {
		t.Run(c.name, func(t *testing.T) {
			checkOne(t, Result(c.rev, json.RawMessage(c.desc), json.RawMessage(c.res)), GateConsume, c.rule, c.path)
		})
	}
}

func TestStructuredAccepted(t *testing.T) {
	for _, c := range []struct{ name, rev, desc, res string }{
		{"valid and mirrored", r3, sumTool, ok5},
		{"mirror with other key order and spacing", r2, toolWith(`"outputSchema":{"type":"object"}`),
			`{"content":[{"type":"text","text":"Result:"},{"type":"text","text":" {\"b\": [1, 2.0], \"a\": 1.50} "}],"structuredContent":{"a":1.5,"b":[1,2]}}`},
		{"isError without structuredContent", r3, sumTool, `{"content":[{"type":"text","text":"it failed"}],"isError":true}`},
		{"isError without structuredContent, modern", rM, sumTool, modern(`{"content":[],"isError":true}`)},
		{"structuredContent without an outputSchema", r3, plainTool, `{"content":[{"type":"text","text":"{\"x\":1}"}],"structuredContent":{"x":1}}`},
		{"array on 2026-07-28", rM, listTool, modern(`{"content":[{"type":"text","text":"[\"a\",\"b\"]"}],"structuredContent":["a","b"]}`)},
		{"scalar on 2026-07-28", rM, toolWith(`"outputSchema":{"type":"integer"}`), modern(`{"content":[{"type":"text","text":"5"}],"structuredContent":5}`)},
		{"null on 2026-07-28", rM, plainTool, modern(`{"content":[{"type":"text","text":"null"}],"structuredContent":null}`)},
		{"wrapped array on 2025-11-25", r3, toolWith(`"outputSchema":{"type":"object","properties":{"result":{"type":"array"}},"required":["result"]}`),
			`{"content":[{"type":"text","text":"[\"alpha\",\"beta\"]"}],"structuredContent":{"result":["alpha","beta"]}}`},
		{"wrapped object also mirrored whole", r2, plainTool, `{"content":[{"type":"text","text":"{\"result\":{\"a\":1}}"}],"structuredContent":{"result":{"a":1}}}`},
		{"keywords in the value are data", rM, plainTool, modern(`{"content":[{"type":"text","text":"{\"$ref\":\"#/nowhere\",\"type\":\"bogus\"}"}],"structuredContent":{"$ref":"#/nowhere","type":"bogus"}}`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkNone(t, Result(c.rev, json.RawMessage(c.desc), json.RawMessage(c.res)))
		})
	}
}

// Many violations are capped as package schema caps them: MaxViolations
// problems, then one that counts the rest.
func TestStructuredViolationsCapped(t *testing.T) {
	items := strings.Repeat(`"x",`, 99) + `"x"`
	res := modern(`{"content":[{"type":"text","text":"[` + strings.ReplaceAll(items, `"`, `\"`) + `]"}],"structuredContent":[` + items + `]}`)
	got := Result(rM, json.RawMessage(toolWith(`"outputSchema":{"type":"array","items":{"type":"integer"}}`)), json.RawMessage(res))
	if len(got) != schema.MaxViolations+1 {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), schema.MaxViolations+1, list(got))
	}
	last := got[len(got)-1]
	if last.Rule != RuleStructuredSchema || last.Path != "/structuredContent" || !strings.Contains(last.Message, "80 more") {
		t.Errorf("last problem %+v", last)
	}
	for _, p := range got {
		checkMessage(t, p)
	}
}
