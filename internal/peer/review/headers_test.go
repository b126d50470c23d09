package review

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

var headerCases = []ruleCase{
	{name: "token: space", rev: rM, desc: withInput(`{"type":"string","x-mcp-header":"Two Words"}`), rule: RuleHeaderToken, path: "/inputSchema/properties/p"},
	{name: "token: empty", rev: rM, desc: withInput(`{"type":"string","x-mcp-header":""}`), rule: RuleHeaderToken, path: "/inputSchema/properties/p"},
	{name: "token: not a string", rev: rM, desc: withInput(`{"type":"string","x-mcp-header":42}`), rule: RuleHeaderToken, path: "/inputSchema/properties/p"},
	{name: "token: colon", rev: rM, desc: withInput(`{"type":"string","x-mcp-header":"A:B"}`), rule: RuleHeaderToken, path: "/inputSchema/properties/p"},
	{name: "type: number", rev: rM, desc: withInput(`{"type":"number","x-mcp-header":"Ratio"}`), rule: RuleHeaderType, path: "/inputSchema/properties/p"},
	{name: "type: none", rev: rM, desc: withInput(`{"enum":["a"],"x-mcp-header":"E"}`), rule: RuleHeaderType, path: "/inputSchema/properties/p"},
	{name: "type: list", rev: rM, desc: withInput(`{"type":["string","null"],"x-mcp-header":"E"}`), rule: RuleHeaderType, path: "/inputSchema/properties/p"},
	{name: "duplicate ignoring case", rev: rM,
		desc: toolWith(`"inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"rEGION"}}}`),
		rule: RuleHeaderDuplicate, path: "/inputSchema/properties/b"},
	{name: "placement: items", rev: rM, desc: withInput(`{"type":"array","items":{"type":"string","x-mcp-header":"I"}}`), rule: RuleHeaderPlacement, path: "/inputSchema/properties/p/items"},
	{name: "placement: anyOf", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}`), rule: RuleHeaderPlacement, path: "/inputSchema/anyOf/0/properties/a"},
	{name: "placement: then", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","then":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}}`), rule: RuleHeaderPlacement, path: "/inputSchema/then/properties/a"},
	{name: "placement: $defs", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/h"}},"$defs":{"h":{"type":"string","x-mcp-header":"H"}}}`), rule: RuleHeaderPlacement, path: "/inputSchema/$defs/h"},
	{name: "placement: root", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","x-mcp-header":"Root"}`), rule: RuleHeaderPlacement, path: "/inputSchema"},
	{name: "placement: outputSchema", rev: rM, desc: toolWith(`"outputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}`), rule: RuleHeaderPlacement, path: "/outputSchema/properties/a"},
	{name: "sensitive property", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","properties":{"api_key":{"type":"string","x-mcp-header":"Key"}}}`), rule: RuleHeaderSensitive, path: "/inputSchema/properties/api_key"},
	{name: "sensitive header name", rev: rM, desc: withInput(`{"type":"string","x-mcp-header":"X-Auth-Token"}`), rule: RuleHeaderSensitive, path: "/inputSchema/properties/p"},
	{name: "sensitive password", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","properties":{"userPassword":{"type":"string","x-mcp-header":"U"}}}`), rule: RuleHeaderSensitive, path: "/inputSchema/properties/userPassword"},
}

func TestHeaderRules(t *testing.T) {
	for _, c := range headerCases {
		t.Run(c.name, func(t *testing.T) {
			checkOne(t, Tool(c.rev, json.RawMessage(c.desc)), GateAdmit, c.rule, c.path)
		})
	}
}

// x-mcp-header means nothing before 2026-07-28: Tool admits there what it
// refuses on 2026-07-28, and Headers gives the same verdicts whatever the
// revision.
func TestHeaderRulesOnlyModern(t *testing.T) {
	for _, c := range headerCases {
		for _, rev := range []string{r0, r1, r2, r3} {
			d := c.desc
			if strings.Contains(c.name, "outputSchema") && rev < r2 {
				continue // outputSchema itself is refused there
			}
			checkNone(t, Tool(rev, json.RawMessage(d)))
		}
		var refused int
		for _, v := range Headers(json.RawMessage(c.desc)) {
			if v.Verdict == c.rule && v.Path == c.path {
				refused++
			}
		}
		if refused != 1 {
			t.Errorf("%s: Headers gives %v, want one %s at %s", c.name, Headers(json.RawMessage(c.desc)), c.rule, c.path)
		}
	}
}

func TestHeadersVerdicts(t *testing.T) {
	d := toolWith(`"inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"loc":{"type":"object","properties":{"zone":{"type":"integer","x-mcp-header":"Zone"}}},
		"again":{"type":"boolean","x-mcp-header":"REGION"},
		"ratio":{"type":"number","x-mcp-header":"Ratio"},
		"plain":{"type":"string"}}},
		"outputSchema":{"type":"object","properties":{"out":{"type":"string","x-mcp-header":"Out"}}}`)
	want := []HeaderVerdict{
		{Header: "REGION", Path: "/inputSchema/properties/again", Verdict: VerdictOK}, // first in key order
		{Header: "Zone", Path: "/inputSchema/properties/loc/properties/zone", Verdict: VerdictOK},
		{Header: "Ratio", Path: "/inputSchema/properties/ratio", Verdict: RuleHeaderType},
		{Header: "Region", Path: "/inputSchema/properties/region", Verdict: RuleHeaderDuplicate},
		{Header: "Out", Path: "/outputSchema/properties/out", Verdict: RuleHeaderPlacement},
	}
	if diff := cmp.Diff(want, Headers(json.RawMessage(d))); diff != "" {
		t.Errorf("Headers (-want +got):\n%s", diff)
	}
	got := Tool(rM, json.RawMessage(d))
	if len(got) != 3 {
		t.Errorf("Tool: want the three refusals, got:\n%s", list(got))
	}
	for _, none := range []string{`[]`, `{"name":"t"}`, toolWith(""), `{"name":"t","inputSchema":{"type":}`} {
		if v := Headers(json.RawMessage(none)); v != nil {
			t.Errorf("Headers(%s) = %v, want nil", none, v)
		}
	}
}

// The verdicts as JSON carry names and pointers only.
func TestHeadersJSON(t *testing.T) {
	b, err := json.Marshal(Headers(json.RawMessage(withInput(`{"type":"string","x-mcp-header":"Region"}`))))
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"header":"Region","path":"/inputSchema/properties/p","verdict":"ok"}]`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}
