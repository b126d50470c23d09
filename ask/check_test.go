package ask

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/protocol"
)

// order is a form with a field of every kind.
type order struct {
	Name   string   `json:"name" jsonschema:"minLength=2,maxLength=5"`
	Email  string   `json:"email,omitempty" format:"email"`
	Age    int      `json:"age" jsonschema:"minimum=0,maximum=150"`
	Small  int8     `json:"small,omitempty"`
	Score  float64  `json:"score,omitempty"`
	OK     bool     `json:"ok,omitempty"`
	Status string   `json:"status,omitempty" jsonschema:"enum=a|b"`
	Size   string   `json:"size,omitempty" jsonschema:"enum=s|m" titles:"Small|Medium"`
	Tags   []string `json:"tags,omitempty" jsonschema:"enum=x|y|z,minItems=1,maxItems=2"`
	Picks  []string `json:"picks,omitempty" jsonschema:"enum=x|y|z,minItems=2" titles:"X|Y|Z"`
}

// content decodes a JSON object into the content of an answer.
func content(t *testing.T, text string) protocol.Object {
	t.Helper()
	var c protocol.Object
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		t.Fatalf("content %s: %v", text, err)
	}
	return c
}

// answerProblems returns the problems of an *AnswerError, nil for no
// error, and fails the test on another error.
func answerProblems(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ae *AnswerError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v (%T) is not an *AnswerError", err, err)
	}
	return ae.Problems
}

func TestCheckAnswer(t *testing.T) {
	form, err := FormOf[order]()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		content string
		want    []string
	}{
		{"valid", `{"name":"bob","age":3}`, nil},
		{"every field", `{"name":"bob","email":"b@example.com","age":150,"small":-128,"score":0.5,"ok":false,
			"status":"b","size":"m","tags":["x","z"],"picks":["z","y","x"]}`, nil},
		{"missing", `{"name":"bob"}`, []string{`field "age" is required but missing`}},
		{"all missing", `{}`, []string{`field "name" is required but missing`, `field "age" is required but missing`}},
		{"not in the form", `{"name":"bob","age":3,"extra":true}`, []string{`field "extra" is not in the form`}},
		{"not in the form, escaped", `{"name":"bob","age":3,"a/b~c":1}`, []string{`field "a/b~c" is not in the form`}},
		{"string type", `{"name":1,"age":3}`, []string{`field "name": 1 should be a string, not an integer`}},
		{"integer type", `{"name":"bob","age":"3"}`, []string{`field "age": "3" should be an integer, not a string`}},
		{"email format", `{"name":"bob","age":3,"email":"nope"}`, []string{`field "email": "nope" is not a valid email`}},
		{"email with a display name", `{"name":"bob","age":3,"email":"Bob <b@example.com>"}`, []string{`field "email": "Bob <b@example.com>" is not a valid email`}},
		{"fraction", `{"name":"bob","age":1.5}`, []string{`field "age": 1.5 should be an integer, not a number with a fractional part`}},
		{"number type", `{"name":"bob","age":3,"score":"1"}`, []string{`field "score": "1" should be a number, not a string`}},
		{"boolean type", `{"name":"bob","age":3,"ok":"yes"}`, []string{`field "ok": "yes" should be a boolean, not a string`}},
		{"null", `{"name":"bob","age":3,"status":null}`, []string{`field "status": null should be a string`}},
		{"object", `{"name":"bob","age":3,"tags":{"a":1}}`, []string{`field "tags": {"a":1} should be an array, not an object`}},
		{"array for a string", `{"name":["bob"],"age":3}`, []string{`field "name": ["bob"] should be a string, not an array`}},
		{"string for an array", `{"name":"bob","age":3,"tags":"x"}`, []string{`field "tags": "x" should be an array, not a string`}},
		{"maximum", `{"name":"bob","age":151}`, []string{`field "age": 151 should be at most 150`}},
		{"minimum", `{"name":"bob","age":-1}`, []string{`field "age": -1 should be at least 0`}},
		{"integer range", `{"name":"bob","age":3,"small":1000}`, []string{`field "small": 1000 should be at most 127`}},
		{"too short", `{"name":"b","age":3}`, []string{`field "name": "b" should be at least 2 characters long`}},
		{"too long", `{"name":"bobbybob","age":3}`, []string{`field "name": "bobbybob" should be at most 5 characters long`}},
		{"enum", `{"name":"bob","age":3,"status":"c"}`, []string{`field "status": "c" should be one of "a", "b"`}},
		{"enum type", `{"name":"bob","age":3,"status":1}`, []string{`field "status": 1 should be a string, not an integer`}},
		{"titled", `{"name":"bob","age":3,"size":"l"}`, []string{`field "size": "l" should be one of "s", "m"`}},
		{"titled type", `{"name":"bob","age":3,"size":3}`, []string{`field "size": 3 should be a string, not an integer`}},
		{"choice", `{"name":"bob","age":3,"tags":["q"]}`, []string{`field "tags": the choice "q" should be one of "x", "y", "z"`}},
		{"choice type", `{"name":"bob","age":3,"tags":[1]}`, []string{`field "tags": the choice 1 should be a string, not an integer`}},
		{"titled choice", `{"name":"bob","age":3,"picks":["x","q"]}`, []string{`field "picks": the choice "q" should be one of "x", "y", "z"`}},
		{"too few", `{"name":"bob","age":3,"tags":[]}`, []string{`field "tags": at least 1 choice should be chosen, not 0`}},
		{"too few titled", `{"name":"bob","age":3,"picks":["x"]}`, []string{`field "picks": at least 2 choices should be chosen, not 1`}},
		{"too many", `{"name":"bob","age":3,"tags":["x","y","z"]}`, []string{`field "tags": at most 2 choices should be chosen, not 3`}},
		{"twice", `{"name":"bob","age":3,"tags":["x","x"]}`, []string{`field "tags": "x" is chosen more than once`}},
		{"twice titled", `{"name":"bob","age":3,"picks":["y","x","y"]}`, []string{`field "picks": "y" is chosen more than once`}},
		{"several", `{"name":1,"score":true,"status":"c","tags":["x","y","q"],"picks":[],"more":1}`, []string{
			`field "age" is required but missing`,
			`field "more" is not in the form`,
			`field "name": 1 should be a string, not an integer`,
			`field "picks": at least 2 choices should be chosen, not 0`,
			`field "score": true should be a number, not a boolean`,
			`field "status": "c" should be one of "a", "b"`,
			`field "tags": at most 2 choices should be chosen, not 3`,
			`field "tags": the choice "q" should be one of "x", "y", "z"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := answerProblems(t, checkAnswer(form, content(t, tt.content)))
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestCheckAnswerNoContent(t *testing.T) {
	form, _ := FormOf[order]()
	got := answerProblems(t, checkAnswer(form, nil))
	want := []string{`field "name" is required but missing`, `field "age" is required but missing`}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
	if err := checkAnswer(protocol.RequestedSchema{}, nil); err != nil {
		t.Errorf("an empty answer to an empty form: %v", err)
	}
}

func TestCheckAnswerMany(t *testing.T) {
	form, _ := FormOf[order]()
	var b strings.Builder
	b.WriteString(`{"name":"bob","age":3`)
	for i := range 25 {
		fmt.Fprintf(&b, `,"x%02d":1`, i)
	}
	b.WriteString("}")
	got := answerProblems(t, checkAnswer(form, content(t, b.String())))
	if len(got) != 21 || got[0] != `field "x00" is not in the form` || got[20] != "… and 5 more problems" {
		t.Errorf("problems: %q", got)
	}
}

func TestCheckAnswerWrittenForm(t *testing.T) {
	lo, hi := 1.0, 9.0
	def := func(s string) *string { return &s }
	form := protocol.RequestedSchema{
		Properties: map[string]protocol.PrimitiveSchemaDefinition{
			"legacy": {LegacyTitledEnum: &protocol.LegacyTitledEnumSchema{Enum: []string{"a", "b"}, EnumNames: []string{"A", "B"}}},
			"n":      {Number: &protocol.NumberSchema{Type: "number", Minimum: &lo, Maximum: &hi}},
			"s":      {String: &protocol.StringSchema{Default: def("x")}},
		},
		Required: []string{"n"},
	}
	if err := checkAnswer(form, content(t, `{"legacy":"b","n":1.5,"s":"y"}`)); err != nil {
		t.Errorf("valid answer: %v", err)
	}
	got := answerProblems(t, checkAnswer(form, content(t, `{"legacy":"c","n":0.5}`)))
	want := []string{`field "legacy": "c" should be one of "a", "b"`, `field "n": 0.5 should be at least 1`}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

func TestCheckAnswerBadForm(t *testing.T) {
	form := protocol.RequestedSchema{Schema: "https://example.com/not-a-dialect"}
	err := checkAnswer(form, content(t, `{}`))
	var ae *AnswerError
	if err == nil || errors.As(err, &ae) || !strings.Contains(err.Error(), "the form cannot be checked") {
		t.Errorf("error %v, want one about the form", err)
	}
}

func TestCompiledFormCache(t *testing.T) {
	form, _ := FormOf[order]()
	a, err := compiledForm(form)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compiledForm(form)
	if a != b {
		t.Error("the same form was compiled twice")
	}
	for i := range maxCompiledForms + 10 {
		f := protocol.RequestedSchema{Properties: map[string]protocol.PrimitiveSchemaDefinition{
			fmt.Sprint("f", i): {Boolean: &protocol.BooleanSchema{}},
		}}
		if _, err := compiledForm(f); err != nil {
			t.Fatal(err)
		}
	}
	compiledForms.mu.Lock()
	n, m := len(compiledForms.m), len(compiledForms.order)
	compiledForms.mu.Unlock()
	if n != maxCompiledForms || m != maxCompiledForms {
		t.Errorf("cache holds %d forms (%d in order), want %d", n, m, maxCompiledForms)
	}
	if c, _ := compiledForm(form); c == a {
		t.Error("the oldest form was not evicted")
	}
}

// fakeClient answers every question with one elicitation result. The
// hooks ask does not use are the embedded nil Call's (they would panic).
type fakeClient struct {
	callctx.Call
	answer string
	asked  json.RawMessage // the params of the last question
}

// Request declares the form mode of elicitation.
func (f *fakeClient) Request() *protocol.RequestInfo {
	return &protocol.RequestInfo{ClientCapabilities: json.RawMessage(`{"elicitation":{}}`)}
}

// AskClient records the question and gives the answer.
func (f *fakeClient) AskClient(_ context.Context, _, _ string, params json.RawMessage) (json.RawMessage, error) {
	f.asked = params
	return json.RawMessage(f.answer), nil
}

// Remember forgets.
func (f *fakeClient) Remember(string, json.RawMessage) {}

// Recall finds nothing.
func (f *fakeClient) Recall(string) (json.RawMessage, bool) { return nil, false }

// TrackElicitation keeps nothing.
func (f *fakeClient) TrackElicitation(string) {}

func TestElicitAsChecksTheAnswer(t *testing.T) {
	c := &fakeClient{answer: `{"action":"accept","content":{"name":"bob","age":30,"picks":["x","z"]}}`}
	ctx := callctx.With(context.Background(), c)
	reply, err := ElicitAs[order](ctx, "Who?")
	if err != nil {
		t.Fatal(err)
	}
	if want := (order{Name: "bob", Age: 30, Picks: []string{"x", "z"}}); !reflect.DeepEqual(reply.Content, want) || !reply.Accepted() {
		t.Errorf("reply %+v, want %+v", reply, want)
	}
	if !strings.Contains(string(c.asked), `"picks":{"type":"array","minItems":2,"items":{"anyOf":[{"const":"x","title":"X"}`) {
		t.Errorf("the question does not carry the form: %s", c.asked)
	}

	c.answer = `{"action":"accept","content":{"name":"bob","age":"30","spam":1}}`
	_, err = ElicitAs[order](ctx, "Who?")
	got := answerProblems(t, err)
	want := []string{`field "age": "30" should be an integer, not a string`, `field "spam" is not in the form`}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}

	c.answer = `{"action":"decline","content":{"spam":1}}`
	if reply, err := ElicitAs[order](ctx, "Who?"); err != nil || reply.Action != Decline {
		t.Errorf("decline: %+v, %v", reply, err)
	}
}

func TestValidFormat(t *testing.T) {
	for _, tt := range []struct {
		format, v string
		ok        bool
	}{
		{"email", "a@example.com", true}, {"email", "a@", false},
		{"uri", "https://example.com/x", true}, {"uri", "example.com", false},
		{"date", "2026-12-01", true}, {"date", "2026-13-01", false},
		{"date-time", "2026-12-01T10:00:00Z", true}, {"date-time", "2026-12-01 10:00", false},
	} {
		if got := validFormat(tt.format, tt.v); got != tt.ok {
			t.Errorf("%s %q: %v, want %v", tt.format, tt.v, got, tt.ok)
		}
	}
}
