package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// Keys of the tests, each long enough.
var (
	key1 = mcp.StateKey{ID: "k1", Secret: []byte("k1: thirty-two bytes of secret, at least")}
	key2 = mcp.StateKey{ID: "k2", Secret: []byte("k2: another secret of thirty-two bytes")}
)

const staleTools = "invalid params: stale cursor: the tool list changed; list again from the start"

// instance is one of several servers behind a load balancer: a stateless
// endpoint, as the HTTP handler serves modern requests.
type instance struct {
	t  *testing.T
	ep *mcp.Endpoint
}

func newInstance(t *testing.T, opts *mcp.Options, tools ...tool.Tool) (*instance, *mcp.Server) {
	t.Helper()
	o := *opts
	srv := newServer(t, &o, tools...)
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	t.Cleanup(func() { ep.Close() })
	return &instance{t, ep}, srv
}

// do sends one modern request as caller (nil: none) and returns its
// response.
func (in *instance) do(caller *auth.Principal, req *jsonrpc.Request) *jsonrpc.Response {
	in.t.Helper()
	ctx := context.Background()
	if caller != nil {
		ctx = auth.WithPrincipal(ctx, caller)
	}
	x := newExchange()
	in.ep.Handle(ctx, req, x.send)
	msgs := x.wait(in.t)
	return msgs[len(msgs)-1].(*jsonrpc.Response)
}

// list asks for one page of method with cursor ("" for the first) and
// returns the names (or URIs) on it, the next cursor and the error.
func (in *instance) list(caller *auth.Principal, method, cursor string) (names []string, next string, err *jsonrpc.Error) {
	in.t.Helper()
	p := map[string]any{"_meta": modernMeta(nil)}
	if cursor != "" {
		p["cursor"] = cursor
	}
	raw, _ := json.Marshal(p)
	r := in.do(caller, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: method, Params: raw})
	if r.Error != nil {
		return nil, "", r.Error
	}
	var page struct {
		Tools      []struct{ Name string }
		Resources  []struct{ URI string }
		NextCursor string
	}
	if e := json.Unmarshal(r.Result, &page); e != nil {
		in.t.Fatalf("%s: %s: %v", method, r.Result, e)
	}
	for _, t := range page.Tools {
		names = append(names, t.Name)
	}
	for _, r := range page.Resources {
		names = append(names, r.URI)
	}
	return names, page.NextCursor, nil
}

// noopTools are n tools named t0, t1, ... with the given description.
func noopTools(n int, description string) []tool.Tool {
	var ts []tool.Tool
	for i := range n {
		t := rawTool(fmt.Sprintf("t%d", i), func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil })
		t.Description = description
		ts = append(ts, t)
	}
	return ts
}

// Identical instances accept each other's cursors: a list paged across
// two servers sees every tool once, in order. A server with another key
// refuses them; one whose list differs (a descriptor, the order, a tool
// more) finds them stale.
func TestCursorPortable(t *testing.T) {
	opts := &mcp.Options{StateKey: key1.Secret, PageSize: 2}
	a, _ := newInstance(t, opts, noopTools(5, "same")...)
	b, _ := newInstance(t, opts, noopTools(5, "same")...)
	var seen []string
	var cursors []string
	next := ""
	for i := 0; ; i++ {
		in := []*instance{a, b}[i%2]
		names, n, err := in.list(nil, "tools/list", next)
		if err != nil {
			t.Fatalf("page %d: %+v", i, err)
		}
		seen = append(seen, names...)
		if n == "" {
			break
		}
		next = n
		cursors = append(cursors, n)
	}
	if got := strings.Join(seen, " "); got != "t0 t1 t2 t3 t4" {
		t.Errorf("paged across instances: %s", got)
	}
	if len(cursors[0]) > 26 {
		t.Errorf("cursor %q is %d characters, want at most 26", cursors[0], len(cursors[0]))
	}

	reordered := noopTools(5, "same")
	reordered[0], reordered[1] = reordered[1], reordered[0]
	for _, tc := range []struct {
		name  string
		opts  *mcp.Options
		tools []tool.Tool
		want  string
	}{
		{"another key", &mcp.Options{StateKey: key2.Secret, PageSize: 2}, noopTools(5, "same"), "invalid params: invalid cursor"},
		{"a random key", &mcp.Options{PageSize: 2}, noopTools(5, "same"), "invalid params: invalid cursor"},
		{"another descriptor", opts, noopTools(5, "other"), staleTools},
		{"another order", opts, reordered, staleTools},
		{"one tool more", opts, noopTools(6, "same"), staleTools},
	} {
		c, _ := newInstance(t, tc.opts, tc.tools...)
		if _, _, err := c.list(nil, "tools/list", cursors[0]); err == nil || err.Code != jsonrpc.CodeInvalidParams || err.Message != tc.want {
			t.Errorf("%s: got %+v, want -32602 %q", tc.name, err, tc.want)
		}
	}
}

// A list that changes makes its cursors stale, and a list changed back to
// what it was accepts them again: a cursor is bound to content, not to a
// count of changes.
func TestCursorStaleAfterChange(t *testing.T) {
	opts := &mcp.Options{StateKeys: []mcp.StateKey{key1}, PageSize: 2}
	a, srv := newInstance(t, opts, noopTools(5, "same")...)
	_, cursor, err := a.list(nil, "tools/list", "")
	if err != nil || cursor == "" {
		t.Fatalf("first page: %q %+v", cursor, err)
	}
	srv.RemoveTool("t4")
	if _, _, err := a.list(nil, "tools/list", cursor); err == nil || err.Message != staleTools {
		t.Errorf("after RemoveTool: %+v, want %q", err, staleTools)
	}
	srv.MustAddTool(noopTools(5, "same")[4])
	if names, _, err := a.list(nil, "tools/list", cursor); err != nil || strings.Join(names, " ") != "t2 t3" {
		t.Errorf("the same list again: %v %+v", names, err)
	}
}

// Rotation: A seals with k1; B holds k2 (sealing) and k1 and accepts A's
// cursors; C holds only k2 and accepts B's cursors but refuses A's. A,
// which never heard of k2, refuses B's.
func TestCursorRotation(t *testing.T) {
	a, _ := newInstance(t, &mcp.Options{StateKeys: []mcp.StateKey{key1}, PageSize: 2}, noopTools(5, "same")...)
	b, _ := newInstance(t, &mcp.Options{StateKeys: []mcp.StateKey{key2, key1}, PageSize: 2}, noopTools(5, "same")...)
	c, _ := newInstance(t, &mcp.Options{StateKeys: []mcp.StateKey{key2}, PageSize: 2}, noopTools(5, "same")...)
	_, fromA, _ := a.list(nil, "tools/list", "")
	names, fromB, err := b.list(nil, "tools/list", fromA)
	if err != nil || strings.Join(names, " ") != "t2 t3" {
		t.Fatalf("B on A's cursor: %v %+v", names, err)
	}
	if names, _, err := c.list(nil, "tools/list", fromB); err != nil || strings.Join(names, " ") != "t4" {
		t.Errorf("C on B's cursor: %v %+v", names, err)
	}
	for _, tc := range []struct {
		name   string
		in     *instance
		cursor string
	}{{"C on A's cursor", c, fromA}, {"A on B's cursor", a, fromB}} {
		if _, _, err := tc.in.list(nil, "tools/list", tc.cursor); err == nil || err.Message != "invalid params: invalid cursor" {
			t.Errorf("%s: %+v, want invalid cursor", tc.name, err)
		}
	}
}

// Pages are counted in what the caller sees: a cursor is valid for any
// caller who sees the same entries, on any instance, and stale for one
// who sees others.
func TestCursorBoundToVisibleList(t *testing.T) {
	opts := &mcp.Options{StateKey: key1.Secret, PageSize: 1}
	operator := func(c *auth.Principal) bool { return c.HasScope("operator") }
	build := func() *instance {
		in, srv := newInstance(t, opts)
		for i, hidden := range []bool{false, true, false, true, false} {
			uri := fmt.Sprintf("test://r%d", i)
			r := mcp.Resource{URI: uri, Name: uri, Read: mcp.StaticRead("x")}
			if hidden {
				r.Visible = operator
			}
			srv.MustAddResource(r)
		}
		return in
	}
	a, b := build(), build()
	ada := &auth.Principal{Subject: "ada", Scopes: []string{"operator"}}
	bob := &auth.Principal{Subject: "bob"}
	carol := &auth.Principal{Subject: "carol", Scopes: []string{"reader"}}

	// bob pages through what he sees, across both instances.
	var seen []string
	next := ""
	for i := 0; i < 10; i++ {
		names, n, err := []*instance{a, b}[i%2].list(bob, "resources/list", next)
		if err != nil {
			t.Fatalf("bob, page %d: %+v", i, err)
		}
		seen = append(seen, names...)
		if next = n; next == "" {
			break
		}
	}
	if got := strings.Join(seen, " "); got != "test://r0 test://r2 test://r4" {
		t.Errorf("bob saw %s", got)
	}

	_, fromBob, _ := a.list(bob, "resources/list", "")
	_, fromAda, _ := a.list(ada, "resources/list", "")
	if names, _, err := b.list(carol, "resources/list", fromBob); err != nil || strings.Join(names, " ") != "test://r2" {
		t.Errorf("carol, who sees what bob sees, on bob's cursor: %v %+v", names, err)
	}
	if names, _, err := b.list(ada, "resources/list", fromAda); err != nil || strings.Join(names, " ") != "test://r1" {
		t.Errorf("ada on her own cursor, on B: %v %+v", names, err)
	}
	const stale = "invalid params: stale cursor: the resource list changed; list again from the start"
	for _, tc := range []struct {
		name   string
		caller *auth.Principal
		cursor string
	}{{"bob on ada's cursor", bob, fromAda}, {"ada on bob's cursor", ada, fromBob}, {"no caller on ada's", nil, fromAda}} {
		if _, _, err := b.list(tc.caller, "resources/list", tc.cursor); err == nil || err.Message != stale {
			t.Errorf("%s: %+v, want %q", tc.name, err, stale)
		}
	}
}

// Every change to a cursor is refused, as the same invalid cursor: the
// MAC covers its key ID, its list tag and its offset.
func TestCursorTampered(t *testing.T) {
	a, _ := newInstance(t, &mcp.Options{StateKeys: []mcp.StateKey{key1, key2}, PageSize: 2}, noopTools(5, "same")...)
	_, cursor, _ := a.list(nil, "tools/list", "")
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range cursor {
		for _, c := range []byte{alphabet[(strings.IndexByte(alphabet, cursor[i])+1)%64], '='} {
			b := []byte(cursor)
			b[i] = c
			if _, _, err := a.list(nil, "tools/list", string(b)); err == nil || err.Message != "invalid params: invalid cursor" {
				t.Fatalf("cursor %q changed at %d to %q: %+v", cursor, i, b, err)
			}
		}
	}
	for _, bad := range []string{cursor[:len(cursor)-1], cursor + "A", cursor + cursor, strings.Repeat("A", 4096)} {
		if _, _, err := a.list(nil, "tools/list", bad); err == nil || err.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("cursor %q: %+v", bad, err)
		}
	}
}

// An input_required round started on one instance is finished on another
// through a key rotation: A seals with k1, B (k2 sealing, k1 accepted)
// takes A's state and seals the next round with k2, and C (k2 only)
// finishes it but refuses what A sealed.
func TestStateRotation(t *testing.T) {
	a, _ := newInstance(t, &mcp.Options{StateKeys: []mcp.StateKey{key1}}, stepsTool())
	b, _ := newInstance(t, &mcp.Options{StateKeys: []mcp.StateKey{key2, key1}}, stepsTool())
	c, _ := newInstance(t, &mcp.Options{StateKeys: []mcp.StateKey{key2}}, stepsTool())
	step1 := map[string]any{"step1": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}
	step2 := map[string]any{"step2": map[string]any{"action": "accept", "content": map[string]any{"color": "green"}}}

	s1 := inputRequired(t, a.do(nil, modernCall(1, "steps", nil, nil))).RequestState
	s2 := inputRequired(t, b.do(nil, modernCall(2, "steps", nil, map[string]any{"inputResponses": step1, "requestState": s1}))).RequestState
	r := c.do(nil, modernCall(3, "steps", nil, map[string]any{"inputResponses": step2, "requestState": s2}))
	if r.Error != nil || !strings.Contains(string(r.Result), "Ada likes green (runs 3)") {
		t.Fatalf("finished on C: %s %+v", r.Result, r.Error)
	}
	const notValid = "invalid params: requestState is not valid: it was altered, or sealed by a server with another key (servers behind one endpoint need one Options.StateKey)"
	for _, tc := range []struct {
		name  string
		in    *instance
		state string
		resp  map[string]any
	}{{"C on A's state", c, s1, step1}, {"A on B's state", a, s2, step2}} {
		if r := tc.in.do(nil, modernCall(4, "steps", nil, map[string]any{"inputResponses": tc.resp, "requestState": tc.state})); r.Error == nil || r.Error.Message != notValid {
			t.Errorf("%s: %s %+v, want %q", tc.name, r.Result, r.Error, notValid)
		}
	}
	// Every change to a state is refused the same way.
	for i := range s1 {
		b := []byte(s1)
		b[i] ^= 1
		if r := a.do(nil, modernCall(5, "steps", nil, map[string]any{"inputResponses": step1, "requestState": string(b)})); r.Error == nil || r.Error.Message != notValid {
			t.Fatalf("state changed at %d: %s %+v", i, r.Result, r.Error)
		}
	}
}

// A requestState is bound to its caller: another subject, or the same one
// with other scopes, starts again; the same scopes in another order (a
// refreshed token) do not matter, nor does the instance.
func TestStateBoundToCaller(t *testing.T) {
	opts := &mcp.Options{StateKey: key1.Secret}
	a, _ := newInstance(t, opts, greetTool())
	b, _ := newInstance(t, opts, greetTool())
	ada := &auth.Principal{Subject: "ada", Scopes: []string{"read", "write"}}
	st := inputRequired(t, a.do(ada, modernCall(1, "greet", nil, nil))).RequestState
	answers := map[string]any{"user_name": map[string]any{"action": "cancel"}, "client_roots": map[string]any{"roots": []any{}}}
	retry := modernCall(2, "greet", nil, map[string]any{"inputResponses": answers, "requestState": st})
	for _, tc := range []struct {
		name   string
		caller *auth.Principal
		ok     bool
	}{
		{"the same caller", ada, true},
		{"scopes reordered and repeated", &auth.Principal{Subject: "ada", Scopes: []string{"write", "read", "write"}}, true},
		{"another subject", &auth.Principal{Subject: "bob", Scopes: []string{"read", "write"}}, false},
		{"a scope less", &auth.Principal{Subject: "ada", Scopes: []string{"read"}}, false},
		{"a scope more", &auth.Principal{Subject: "ada", Scopes: []string{"read", "write", "admin"}}, false},
		{"a subject that reads like a scope", &auth.Principal{Subject: "ada\x00read", Scopes: []string{"write"}}, false},
		{"no caller", nil, false},
	} {
		r := b.do(tc.caller, retry)
		switch {
		case tc.ok && (r.Error != nil || !strings.Contains(string(r.Result), "no name: cancel")):
			t.Errorf("%s: %s %+v", tc.name, r.Result, r.Error)
		case !tc.ok && (r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, "belongs to another request: the tool, its arguments or the caller differ")):
			t.Errorf("%s: %s %+v, want -32602 naming the caller", tc.name, r.Result, r.Error)
		}
	}
}

// Keys that cannot seal safely stop NewServer, and CheckStateKeys says
// why first.
func TestStateKeyOptions(t *testing.T) {
	long := []byte(strings.Repeat("s", mcp.MinStateKeyLen))
	for _, tc := range []struct {
		name string
		opts mcp.Options
		want string // "" for valid
	}{
		{"none", mcp.Options{}, ""},
		{"one key", mcp.Options{StateKey: long}, ""},
		{"a set", mcp.Options{StateKeys: []mcp.StateKey{key1, key2, {Secret: long}}}, ""},
		{"a short key", mcp.Options{StateKey: long[:31]}, "Options.StateKey is 31 bytes; a state key needs at least 32"},
		{"a short secret in a set", mcp.Options{StateKeys: []mcp.StateKey{key1, {ID: "old", Secret: []byte("short")}}}, `Options.StateKeys[1] (ID "old"): the secret is 5 bytes`},
		{"an empty secret", mcp.Options{StateKeys: []mcp.StateKey{{ID: "k"}}}, `Options.StateKeys[0] (ID "k"): the secret is 0 bytes`},
		{"an ID twice", mcp.Options{StateKeys: []mcp.StateKey{key1, {ID: "k1", Secret: long}}}, `Options.StateKeys[1]: ID "k1" is taken`},
		{"a long ID", mcp.Options{StateKeys: []mcp.StateKey{{ID: strings.Repeat("i", 17), Secret: long}}}, "is 17 bytes; at most 16"},
		{"both", mcp.Options{StateKey: long, StateKeys: []mcp.StateKey{key1}}, "Options.StateKey and Options.StateKeys are both set"},
	} {
		err := tc.opts.CheckStateKeys()
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: CheckStateKeys = %v, want %q", tc.name, err, tc.want)
		}
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), tc.want) {
					t.Errorf("%s: NewServer panicked with %v, want %q", tc.name, p, tc.want)
				}
			}()
			mcp.NewServer(mcp.Implementation{Name: "t"}, &tc.opts)
		}()
	}
}
