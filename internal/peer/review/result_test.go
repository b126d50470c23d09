package review

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// Descriptors for the consume cases.
var (
	plainTool  = toolWith("")
	sumTool    = toolWith(`"outputSchema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`)
	listTool   = toolWith(`"outputSchema":{"type":"array","items":{"type":"string"}}`)
	brokenTool = toolWith(`"outputSchema":{"type":"bogus"}`)
)

// ok5 is a valid result of sumTool, mirrored.
const ok5 = `{"content":[{"type":"text","text":"{\"sum\":5}"}],"structuredContent":{"sum":5}}`

// modern adds resultType "complete" to a result object.
func modern(res string) string { return `{"resultType":"complete",` + res[1:] }

var resultCases = []ruleCase{
	{name: "not an object", rev: r3, desc: plainTool, res: `[]`, rule: RuleResultShape},
	{name: "not JSON", rev: rM, desc: plainTool, res: `{"content":`, rule: RuleResultShape},
	{name: "resultType missing", rev: rM, desc: plainTool, res: `{"content":[]}`, rule: RuleResultType, path: "/resultType"},
	{name: "resultType a number", rev: rM, desc: plainTool, res: `{"resultType":1,"content":[]}`, rule: RuleResultType, path: "/resultType"},
	{name: "isError a string", rev: r3, desc: plainTool, res: `{"content":[],"isError":"true"}`, rule: RuleIsErrorType, path: "/isError"},
	{name: "isError null", rev: rM, desc: plainTool, res: modern(`{"content":[],"isError":null}`), rule: RuleIsErrorType, path: "/isError"},
	{name: "content missing", rev: r0, desc: plainTool, res: `{}`, rule: RuleContentList, path: "/content"},
	{name: "content an object", rev: r3, desc: plainTool, res: `{"content":{"type":"text","text":"x"}}`, rule: RuleContentList, path: "/content"},
	{name: "content null", rev: rM, desc: plainTool, res: modern(`{"content":null}`), rule: RuleContentList, path: "/content"},
	{name: "unusable descriptor", rev: r3, desc: `[]`, res: `{"content":[]}`, rule: RuleDescriptor},
	{name: "outputSchema that does not compile", rev: r3, desc: brokenTool, res: ok5, rule: RuleOutputSchemaInvalid},
}

func TestResultRules(t *testing.T) {
	for _, c := range resultCases {
		t.Run(c.name, func(t *testing.T) {
			checkOne(t, Result(c.rev, json.RawMessage(c.desc), json.RawMessage(c.res)), GateConsume, c.rule, c.path)
		})
	}
}

// Results that are right are accepted, in the revisions that define them.
func TestResultAccepted(t *testing.T) {
	for _, rev := range revisions() {
		res := `{"content":[{"type":"text","text":"hi"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},
			{"type":"resource","resource":{"uri":"file:///a.txt","text":"a","mimeType":"text/plain"}},
			{"type":"resource","resource":{"uri":"test://b","blob":"AAEC"}}],"isError":false,"_meta":{"com.example/x":1}}`
		if rev == rM {
			res = modern(res)
		}
		checkNone(t, Result(rev, json.RawMessage(plainTool), json.RawMessage(res)))
		empty := `{"content":[]}`
		if rev == rM {
			empty = modern(empty)
		}
		checkNone(t, Result(rev, json.RawMessage(plainTool), json.RawMessage(empty)))
		// Before 2025-06-18 an outputSchema means nothing to the result.
		if rev < r2 {
			checkNone(t, Result(rev, json.RawMessage(sumTool), json.RawMessage(empty)))
		}
	}
}

// A 2026-07-28 result that is not complete is not reviewed; ResultType
// says what it is.
func TestResultNotComplete(t *testing.T) {
	for _, c := range []struct{ res, want string }{
		{`{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{}}}}`, ResultInputRequired},
		{`{"resultType":"input_required","requestState":"x"}`, ResultInputRequired},
		{`{"resultType":"task","task":{"taskId":"1"}}`, "task"},
		{`{"resultType":"Complete","content":"broken"}`, "Complete"},
	} {
		if got := ResultType(rM, json.RawMessage(c.res)); got != c.want {
			t.Errorf("ResultType(%s) = %q, want %q", c.res, got, c.want)
		}
		checkNone(t, Result(rM, json.RawMessage(sumTool), json.RawMessage(c.res)))
	}
	for _, c := range []struct{ rev, res, want string }{
		{rM, `{"content":[]}`, ResultComplete},
		{rM, `{"resultType":"complete","content":[]}`, ResultComplete},
		{rM, `{"resultType":1}`, ""},
		{rM, `[]`, ""},
		{r3, `{"resultType":"input_required"}`, ResultComplete},
		{r3, `[]`, ResultComplete},
	} {
		if got := ResultType(c.rev, json.RawMessage(c.res)); got != c.want {
			t.Errorf("ResultType(%s, %s) = %q, want %q", c.rev, c.res, got, c.want)
		}
	}
	// On a legacy connection resultType is no member of the protocol: the
	// result is reviewed as it is.
	checkOne(t, Result(r3, json.RawMessage(plainTool), json.RawMessage(`{"resultType":"input_required"}`)), GateConsume, RuleContentList, "/content")
}

// Every problem of a result is reported, in order.
func TestResultReportsAll(t *testing.T) {
	res := `{"content":[{"type":"video"},{"type":"image","data":"!","mimeType":"text/plain"}],"isError":1,"structuredContent":{"sum":"five"}}`
	got := Result(r3, json.RawMessage(sumTool), json.RawMessage(res))
	var rules []string
	for _, p := range got {
		rules = append(rules, p.Rule)
	}
	want := []string{RuleContentType, RuleContentBase64, RuleContentMIME, RuleIsErrorType, RuleStructuredSchema, RuleStructuredTextMirror}
	if strings.Join(rules, " ") != strings.Join(want, " ") {
		t.Errorf("rules %v, want %v:\n%s", rules, want, list(got))
	}
}

// Messages never repeat what a text block or a structured value holds.
func TestResultMessagesHoldNoValues(t *testing.T) {
	const secret = "hunter2-s3cr3t"
	res := `{"content":[{"type":"text","text":"` + secret + `"},{"type":"text","text":5},{"type":"image","data":"` + secret + `","mimeType":"image/png"},
		{"type":"resource","resource":{"uri":"relative/` + secret + `","text":"` + secret + `","blob":"` + secret + `"}},
		{"type":"resource_link","uri":"` + secret + `","name":"n"}],"structuredContent":{"other":"` + secret + `"}}`
	got := Result(r3, json.RawMessage(sumTool), json.RawMessage(res))
	if len(got) < 5 {
		t.Fatalf("want several problems, got:\n%s", list(got))
	}
	for _, p := range got {
		if strings.Contains(p.Message, secret) || strings.Contains(p.Path, secret) {
			t.Errorf("%s repeats a value: %s", p.Rule, p.Message)
		}
	}
}
