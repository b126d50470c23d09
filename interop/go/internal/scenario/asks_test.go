package scenario

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestAskWire(t *testing.T) {
	const (
		call1   = `> {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}`
		ask1    = `< {"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"m"}}`
		answer1 = `> {"jsonrpc":"2.0","id":"s1","result":{"action":"accept","content":{"name":"Interop"}}}`
		result1 = `< {"jsonrpc":"2.0","id":7,"result":{"content":[]}}`
		need    = `< {"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{}}},"requestState":"S"}}`
		retry   = `> {"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"t","inputResponses":{"k":{"action":"accept"}},"requestState":"S"}}`
		done    = `< {"jsonrpc":"2.0","id":8,"result":{"resultType":"complete","content":[]}}`
	)
	elicit := [][]string{{"elicitation/create"}}
	tests := []struct {
		name   string
		modern bool
		lines  []string
		want   string // a part of the problem, or "" for none
	}{
		{"legacy", false, []string{call1, ask1, answer1, result1}, ""},
		{"legacy, no request", false, []string{call1, result1}, "want [elicitation/create]"},
		{"legacy, answered with an error", false, []string{call1, ask1, `> {"jsonrpc":"2.0","id":"s1","error":{"code":-32603,"message":"context canceled"}}`, result1}, "with error -32603"},
		{"legacy, unanswered", false, []string{call1, ask1, result1}, "did not answer"},
		{"legacy, a second call", false, []string{call1, ask1, answer1, result1, retry, done}, "2 tools/call requests"},
		{"modern", true, []string{call1, need, retry, done}, ""},
		{"modern, no retry", true, []string{call1, need}, "1 tools/call requests, want 2"},
		{"modern, complete at once", true, []string{call1, `< {"jsonrpc":"2.0","id":7,"result":{"resultType":"complete"}}`, retry, done}, `want "input_required"`},
		{"modern, same id", true, []string{call1, need, strings.Replace(retry, `"id":8`, `"id":7`, 1), done}, "reuses id 7"},
		{"modern, state not echoed", true, []string{call1, need, strings.Replace(retry, `,"requestState":"S"`, ``, 1), done}, "not echoed"},
		{"modern, state altered", true, []string{call1, need, strings.Replace(retry, `"requestState":"S"`, `"requestState":"T"`, 1), done}, "not the one given"},
		{"modern, key missing", true, []string{call1, need, strings.Replace(retry, `{"k":`, `{"other":`, 1), done}, `no inputResponses["k"]`},
		{"modern, a request to the client", true, []string{call1, ask1, need, retry, done}, "request to a modern client"},
		{"modern, wrong method", true, []string{call1, strings.Replace(need, "elicitation/create", "roots/list", 1), retry, done}, "asked [roots/list]"},
		{"other tools are not looked at", true, []string{`> {"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"u"}}`, call1, need, retry, done}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			summary, err := askWire(transcript(tt.lines...), 0, "t", elicit, tt.modern)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected problem: %v", err)
			case tt.want == "" && summary == "":
				t.Errorf("no summary")
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("problem %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestElicitAnswer(t *testing.T) {
	tests := []struct {
		name, message, schema string
		action                string
		content               map[string]any
	}{
		{"decline", "please Decline", `{"type":"object","properties":{"name":{"type":"string"}}}`, "decline", nil},
		{"name and color", "m", `{"type":"object","properties":{"name":{"type":"string"},"color":{"type":"string"}}}`, "accept", map[string]any{"name": answerName, "color": answerColor}},
		{"formats and types", "m", `{"type":"object","properties":{"email":{"type":"string","format":"email"},"n":{"type":"integer"},"b":{"type":"boolean"},"s":{"type":"string"}}}`, "accept",
			map[string]any{"email": "interop@example.com", "n": 42, "b": true, "s": "interop s"}},
		{"defaults and enums", "m", `{"type":"object","properties":{"d":{"type":"string","default":"x"},"e":{"type":"string","enum":["a","b"]},"o":{"type":"string","oneOf":[{"const":"c","title":"C"}]},"m":{"type":"array","items":{"enum":["p","q"]}}}}`, "accept",
			map[string]any{"d": "x", "e": "a", "o": "c", "m": []any{"p"}}},
		{"no schema", "m", ``, "accept", map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			action, content := ElicitAnswer(tt.message, json.RawMessage(tt.schema))
			if action != tt.action || !reflect.DeepEqual(content, tt.content) {
				t.Errorf("got %s %v, want %s %v", action, content, tt.action, tt.content)
			}
		})
	}
}

func TestElicitTextProblem(t *testing.T) {
	content := map[string]any{"username": "u", "n": 42}
	tests := []struct {
		name, text, action string
		want               string // a part of the problem, or "" for none
	}{
		{"accept", `User response: action=accept, content={"n":42,"username":"u"}`, "accept", ""},
		{"accept, other content", `User response: action=accept, content={"username":"v","n":42}`, "accept", "the client accepted with"},
		{"accept, no content", `User response: action=accept`, "accept", "no \", content=\""},
		{"decline", `User response: action=decline, content={}`, "decline", ""},
		{"decline seen as accept", `User response: action=accept, content={}`, "decline", "want it to start with"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := elicitTextProblem(tt.text, tt.action, content)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("problem %q, want one mentioning %q", got, tt.want)
			}
		})
	}
}

func TestAcceptedOnWire(t *testing.T) {
	legacy := transcript(`< {"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{}}`, `> {"jsonrpc":"2.0","id":"s1","result":{"action":"accept","content":{"a":"b"}}}`)
	modern := transcript(`> {"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"t","inputResponses":{"k":{"action":"accept","content":{"a":"c"}}}}}`)
	if got := acceptedOnWire(legacy, 0); !reflect.DeepEqual(got, map[string]any{"a": "b"}) {
		t.Errorf("legacy: %v", got)
	}
	if got := acceptedOnWire(modern, 0); !reflect.DeepEqual(got, map[string]any{"a": "c"}) {
		t.Errorf("modern: %v", got)
	}
}
