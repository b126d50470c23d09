package golden

import (
	"strings"
	"testing"
)

// elicitingServer answers a tools/call by asking the client with its own
// id ("x7"), and the client's answer to that id with the result; an answer
// to another id gets an error.
func elicitingServer(params string) func(string) []string {
	return func(line string) []string {
		switch {
		case strings.Contains(line, `"method":"tools/call"`):
			return []string{`{"jsonrpc":"2.0","id":"x7","method":"elicitation/create","params":` + params + `}`}
		case strings.Contains(line, `"x7"`):
			return []string{`{"jsonrpc":"2.0","id":2,"result":{"ok":true}}`}
		}
		return []string{`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"unknown id"}}`}
	}
}

const elicitTranscript = "# t\n-- session --\n" +
	"> {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}\n" +
	"< {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"elicitation/create\",\"params\":{\"m\":1}}\n" +
	"> {\"jsonrpc\":\"2.0\", \"id\" : \"s1\",\"result\":{\"action\":\"accept\"}}\n" +
	"< {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"ok\":true}}\n"

// With Options.ServerIDs the id the server picks for its request matches
// the transcript's, and the client's answer goes out with the server's id
// (every other byte kept); without it both lines differ.
func TestServerIDs(t *testing.T) {
	for _, on := range []bool{true, false} {
		p, seen := fakeServer(t, elicitingServer(`{"m":1}`))
		o := ReplayWith(transcript(t, elicitTranscript), p, Options{ServerIDs: on})
		want := 0
		if !on {
			want = 2
		}
		if len(o.Problems) != want {
			t.Errorf("ServerIDs %v: %d problems, want %d: %q", on, len(o.Problems), want, o.Problems)
		}
		if on && (len(*seen) != 2 || (*seen)[1] != `{"jsonrpc":"2.0", "id" : "x7","result":{"action":"accept"}}`) {
			t.Errorf("the client's answer went out as %q", *seen)
		}
	}
}

// Rewrite keeps a matched request with its transcript id and the answer's;
// a request that changed is written as the server sent it and its answer
// gets the server's id.
func TestRewriteServerIDs(t *testing.T) {
	for _, tt := range []struct{ params, id string }{{`{"m":1}`, `"s1"`}, {`{"m":2}`, `"x7"`}} {
		p, _ := fakeServer(t, elicitingServer(tt.params))
		tr := transcript(t, elicitTranscript)
		got := RecordWith(tr, p, Options{ServerIDs: true}).Rewrite(tr)
		if c := got.Steps[1].Client; !strings.Contains(c, `"id" : `+tt.id) {
			t.Errorf("params %s: the answer is %s, want id %s", tt.params, c, tt.id)
		}
		if e := got.Steps[0].Expected[0]; !strings.Contains(e, `"id":`+tt.id) {
			t.Errorf("params %s: the request is %s, want id %s", tt.params, e, tt.id)
		}
	}
}
