package mcphttp_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcphttp"
)

// Options.SessionIDPrefix starts every session id the handler mints, and
// the session it names works; a prefix a session id cannot hold is
// refused when the handler is built.
func TestSessionIDPrefix(t *testing.T) {
	f := start(t, newServer(t, progressTool()), &mcphttp.Options{SessionIDPrefix: "i1."})
	sid := f.initialize(`{}`)
	if !regexp.MustCompile(`^i1\.[0-9a-f]{32}$`).MatchString(sid) {
		t.Fatalf("session id %q", sid)
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if r := f.postRead(legacyHeaders(sid), list); r.status != 200 || !strings.Contains(r.body, `"steps"`) {
		t.Errorf("tools/list in the session: %d %s", r.status, r.body)
	}
	for _, bad := range []string{"i 1", "é", strings.Repeat("x", 33), "a\nb"} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "SessionIDPrefix") {
					t.Errorf("prefix %q: NewHandler recovered %v, want a panic naming SessionIDPrefix", bad, r)
				}
			}()
			mcphttp.NewHandler(newServer(t), &mcphttp.Options{SessionIDPrefix: bad})
		}()
	}
}
