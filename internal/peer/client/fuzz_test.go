package client

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// FuzzServerOutput feeds the client whatever a server might write in
// answer to a call (lines separated by newlines, "$ID" standing for the
// call's id): the session never panics, and the call ends with a result,
// an error response or an error, within its context.
func FuzzServerOutput(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}`,
		"garbage\n{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{}}",
		`{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"input_required","inputRequests":{"a":` + askElicit + `},"requestState":"s"}}`,
		`{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"mode":"url"}}}}}`,
		`{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"input_required","inputRequests":[1]}}`,
		`{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"input_required","requestState":7}}`,
		`{"jsonrpc":"2.0","id":$ID,"error":{"code":-32602,"message":"x","data":{"a":[`,
		`{"jsonrpc":"2.0","id":$ID,"error":{"code":"x","message":5}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}` + "\n" + `{"jsonrpc":"2.0","id":$ID,"result":5}`,
		"[]\n[[]]\n{}\nnull\n\"\\ud800\"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, out string) {
		sess, _ := connect(t, modern(func(p *peer, m jsonrpc.Message) {
			r, ok := m.(*jsonrpc.Request)
			if !ok {
				return
			}
			for _, line := range strings.Split(strings.ReplaceAll(out, "$ID", r.ID.Raw()), "\n") {
				p.write(line)
			}
			p.fail(r.ID, -32603, "") // in case nothing above answered
		}), Options{Handlers: Handlers{Elicit: acceptAll, Roots: rootsAnswer, Sample: sampleAnswer}, MaxInputRounds: 3})
		_, _, err := sess.Call(bounded(t), "tools/call", nil)
		if errors.Is(err, ErrClosed) {
			t.Fatalf("Call: %v", err)
		}
		sess.Problems()
	})
}
