package review

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// toolWith builds a descriptor from a valid minimal one and the members
// extra (JSON object members without the braces), which replace the
// minimal ones of the same name.
func toolWith(extra string) string {
	d := map[string]json.RawMessage{"name": json.RawMessage(`"t"`), "inputSchema": json.RawMessage(`{"type":"object"}`)}
	if extra != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte("{"+extra+"}"), &m); err != nil {
			panic(err)
		}
		for k, v := range m {
			d[k] = v
		}
	}
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// withInput is a descriptor whose inputSchema has the one property p.
func withInput(p string) string {
	return toolWith(`"inputSchema":{"type":"object","properties":{"p":` + p + `}}`)
}

var toolCases = []ruleCase{
	{name: "unknown revision", rev: "2025-01-01", desc: toolWith(""), rule: RuleRevision},
	{name: "not an object", rev: rM, desc: `[1]`, rule: RuleDescriptor},
	{name: "not JSON", rev: r3, desc: `{"name":`, rule: RuleDescriptor},
	{name: "empty", rev: r3, desc: ``, rule: RuleDescriptor},
	{name: "null", rev: r3, desc: `null`, rule: RuleDescriptor},

	{name: "name missing", rev: rM, desc: `{"inputSchema":{"type":"object"}}`, rule: RuleToolName, path: "/name"},
	{name: "name not a string", rev: rM, desc: toolWith(`"name":7`), rule: RuleToolName, path: "/name"},
	{name: "name empty", rev: r0, desc: toolWith(`"name":""`), rule: RuleToolName, path: "/name"},
	{name: "name with a space", rev: r0, desc: toolWith(`"name":"get weather"`), rule: RuleToolName, path: "/name"},
	{name: "name with a slash", rev: r3, desc: toolWith(`"name":"a/b"`), rule: RuleToolName, path: "/name"},
	{name: "name too long", rev: r3, desc: toolWith(`"name":"` + strings.Repeat("a", 129) + `"`), rule: RuleToolName, path: "/name"},
	{name: "name not ASCII", rev: rM, desc: toolWith(`"name":"café"`), rule: RuleToolName, path: "/name"},

	{name: "title not a string", rev: r2, desc: toolWith(`"title":5`), rule: RuleFieldType, path: "/title"},
	{name: "description null", rev: r0, desc: toolWith(`"description":null`), rule: RuleFieldType, path: "/description"},
	{name: "annotations not an object", rev: r1, desc: toolWith(`"annotations":[]`), rule: RuleFieldType, path: "/annotations"},
	{name: "annotations title", rev: r1, desc: toolWith(`"annotations":{"title":1}`), rule: RuleFieldType, path: "/annotations/title"},
	{name: "readOnlyHint a string", rev: r1, desc: toolWith(`"annotations":{"readOnlyHint":"true"}`), rule: RuleAnnotationHint, path: "/annotations/readOnlyHint"},
	{name: "destructiveHint a number", rev: rM, desc: toolWith(`"annotations":{"destructiveHint":0}`), rule: RuleAnnotationHint, path: "/annotations/destructiveHint"},
	{name: "idempotentHint null", rev: r3, desc: toolWith(`"annotations":{"idempotentHint":null}`), rule: RuleAnnotationHint, path: "/annotations/idempotentHint"},
	{name: "openWorldHint an object", rev: r2, desc: toolWith(`"annotations":{"openWorldHint":{}}`), rule: RuleAnnotationHint, path: "/annotations/openWorldHint"},

	{name: "inputSchema missing", rev: rM, desc: `{"name":"t"}`, rule: RuleInputSchemaMissing, path: "/inputSchema"},
	{name: "inputSchema null", rev: r0, desc: toolWith(`"inputSchema":null`), rule: RuleInputSchemaMissing, path: "/inputSchema"},
	{name: "inputSchema a string", rev: r3, desc: toolWith(`"inputSchema":"object"`), rule: RuleInputSchemaInvalid, path: "/inputSchema"},
	{name: "inputSchema unknown type", rev: r3, desc: toolWith(`"inputSchema":{"type":"obj"}`), rule: RuleInputSchemaInvalid, path: "/inputSchema"},
	{name: "inputSchema unresolved $ref", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/none"}}}`), rule: RuleInputSchemaInvalid, path: "/inputSchema"},
	{name: "inputSchema remote $ref", rev: rM, desc: toolWith(`"inputSchema":{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`), rule: RuleInputSchemaInvalid, path: "/inputSchema"},
	{name: "inputSchema unknown dialect", rev: r3, desc: toolWith(`"inputSchema":{"$schema":"https://example.com/dialect","type":"object"}`), rule: RuleInputSchemaInvalid, path: "/inputSchema"},
	{name: "inputSchema array root", rev: r3, desc: toolWith(`"inputSchema":{"type":"array"}`), rule: RuleInputSchemaRoot, path: "/inputSchema"},
	{name: "inputSchema without type", rev: rM, desc: toolWith(`"inputSchema":{"properties":{"a":{"type":"string"}}}`), rule: RuleInputSchemaRoot, path: "/inputSchema"},
	{name: "inputSchema boolean", rev: rM, desc: toolWith(`"inputSchema":true`), rule: RuleInputSchemaRoot, path: "/inputSchema"},
	{name: "inputSchema type list", rev: r2, desc: toolWith(`"inputSchema":{"type":["object","null"]}`), rule: RuleInputSchemaRoot, path: "/inputSchema"},

	{name: "outputSchema in 2024-11-05", rev: r0, desc: toolWith(`"outputSchema":{"type":"object"}`), rule: RuleOutputSchemaRevision, path: "/outputSchema"},
	{name: "outputSchema in 2025-03-26", rev: r1, desc: toolWith(`"outputSchema":{"type":"object"}`), rule: RuleOutputSchemaRevision, path: "/outputSchema"},
	{name: "outputSchema an array", rev: r2, desc: toolWith(`"outputSchema":[]`), rule: RuleOutputSchemaInvalid, path: "/outputSchema"},
	{name: "outputSchema null", rev: rM, desc: toolWith(`"outputSchema":null`), rule: RuleOutputSchemaInvalid, path: "/outputSchema"},
	{name: "outputSchema true", rev: rM, desc: toolWith(`"outputSchema":true`), rule: RuleOutputSchemaInvalid, path: "/outputSchema"},
	{name: "outputSchema bad keyword", rev: rM, desc: toolWith(`"outputSchema":{"type":"array","minItems":-1}`), rule: RuleOutputSchemaInvalid, path: "/outputSchema"},
	{name: "outputSchema array root 2025-06-18", rev: r2, desc: toolWith(`"outputSchema":{"type":"array","items":{"type":"string"}}`), rule: RuleOutputSchemaRoot, path: "/outputSchema"},
	{name: "outputSchema array root 2025-11-25", rev: r3, desc: toolWith(`"outputSchema":{"type":"array"}`), rule: RuleOutputSchemaRoot, path: "/outputSchema"},
	{name: "outputSchema without type 2025-11-25", rev: r3, desc: toolWith(`"outputSchema":{"properties":{"a":{}}}`), rule: RuleOutputSchemaRoot, path: "/outputSchema"},
}

func TestToolRules(t *testing.T) {
	for _, c := range toolCases {
		t.Run(c.name, func(t *testing.T) {
			checkOne(t, Tool(c.rev, json.RawMessage(c.desc)), GateAdmit, c.rule, c.path)
		})
	}
}

// A full descriptor, and descriptors at the edges of the rules, are
// admitted in every revision that defines what they hold.
func TestToolAdmitted(t *testing.T) {
	full := `{"name":"get_weather.v2-x","title":"Weather","description":"Gets it.",
		"inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
			"$defs":{"loc":{"type":"string"}},"properties":{"city":{"$ref":"#/$defs/loc"}},
			"required":["city"],"additionalProperties":false},
		"annotations":{"title":"Weather","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":true},
		"icons":[{"src":"https://example.com/i.png"}],"_meta":{"com.example/x":1},"unknownMember":{"any":"thing"}}`
	longName := toolWith(`"name":"` + strings.Repeat("a", 128) + `"`)
	draft7 := toolWith(`"inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"a":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/a"}}}`)
	for _, rev := range revisions() {
		for _, d := range []string{toolWith(""), full, longName, draft7} {
			checkNone(t, Tool(rev, json.RawMessage(d)))
		}
	}
	for _, rev := range []string{r2, r3, rM} {
		checkNone(t, Tool(rev, json.RawMessage(toolWith(`"outputSchema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`))))
	}
	// 2026-07-28 takes any root.
	for _, out := range []string{`{"type":"array","items":{"type":"string"}}`, `{"type":"string"}`, `{}`, `{"anyOf":[{"type":"null"},{"type":"integer"}]}`} {
		checkNone(t, Tool(rM, json.RawMessage(toolWith(`"outputSchema":`+out))))
	}
}

// Every problem of a descriptor is reported, not only the first.
func TestToolReportsAll(t *testing.T) {
	d := `{"name":"a b","title":1,"annotations":{"readOnlyHint":"no"},"inputSchema":{"type":"array"},"outputSchema":{"type":"array"}}`
	got := Tool(r3, json.RawMessage(d))
	var rules []string
	for _, p := range got {
		rules = append(rules, p.Rule)
	}
	want := []string{RuleToolName, RuleFieldType, RuleAnnotationHint, RuleInputSchemaRoot, RuleOutputSchemaRoot}
	if strings.Join(rules, " ") != strings.Join(want, " ") {
		t.Errorf("rules %v, want %v:\n%s", rules, want, list(got))
	}
}

// A long name is clipped in the message.
func TestToolNameClipped(t *testing.T) {
	got := Tool(r3, json.RawMessage(toolWith(`"name":"`+strings.Repeat("x ", 5000)+`"`)))
	checkOne(t, got, GateAdmit, RuleToolName, "/name")
	if len(got[0].Message) > 300 || !strings.Contains(got[0].Message, "10000 bytes") {
		t.Errorf("message not clipped: %d bytes: %.200s", len(got[0].Message), got[0].Message)
	}
}

// The Problem's JSON form has the documented member names, and leaves an
// empty path out.
func TestProblemJSON(t *testing.T) {
	b, err := json.Marshal([]Problem{{Gate: GateAdmit, Rule: RuleDescriptor, Message: "m"}, {Gate: GateConsume, Rule: RuleContentType, Path: "/content/0/type", Message: "n"}})
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"gate":"admit","rule":"descriptor","message":"m"},{"gate":"consume","rule":"content-type","path":"/content/0/type","message":"n"}]`
	if string(b) != want {
		t.Errorf("got %s\nwant %s", b, want)
	}
}
