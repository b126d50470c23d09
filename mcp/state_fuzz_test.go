package mcp

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

func fuzzServer(t testing.TB) *Server {
	t.Helper()
	return NewServer(Implementation{Name: "fuzz"}, &Options{
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		StateKeys: []StateKey{{ID: "k1", Secret: bytes.Repeat([]byte{1}, 32)}, {Secret: bytes.Repeat([]byte{2}, 32)}},
	})
}

// Whatever a client sends as a cursor, parsing it never panics, and what
// it accepts is a cursor the server made.
func FuzzParseCursor(f *testing.F) {
	s := fuzzServer(f)
	tag := listTag{1, 2, 3, 4, 5, 6, 7, 8}
	for _, off := range []int{0, 1, 50, 1 << 20} {
		f.Add(s.makeCursor(listTools, tag, off))
	}
	f.Add("")
	f.Add("AAAAAAAAAAEAAAACAAAAAAAAAAA")
	f.Add(strings.Repeat("_", 51))
	f.Fuzz(func(t *testing.T, cursor string) {
		off, err := s.parseCursor(listTools, cursor, tag)
		if err == nil && cursor != "" && s.makeCursor(listTools, tag, off) != cursor {
			t.Fatalf("accepted %q (offset %d), which the server did not make", cursor, off)
		}
		s.parseCursor(listPrompts, cursor, listTag{})
	})
}

// Whatever a client sends as a requestState, opening it never panics; and
// a state the server sealed, whatever it holds, is opened and checked
// against the responses without panicking.
func FuzzOpenState(f *testing.F) {
	s := fuzzServer(f)
	f.Add(s.keys.sealState([]byte(`{"b":"x"}`)), []byte(`{"q":"elicitation/create"}`), []byte(`{"q":{"a":"elicitation/create"}}`), []byte(`{"a":{"action":"accept"}}`))
	f.Add("", []byte(`null`), []byte(`{}`), []byte(`[]`))
	f.Add("AQ", []byte{}, []byte(`{"q":{"a":"roots/list","b":"sampling/createMessage"},"a":{"x":1},"m":{"y":2}}`), []byte(`{"a":{"roots":[{"uri":""}]},"b":{"role":"user"}}`))
	f.Fuzz(func(t *testing.T, text string, plain, state, responses []byte) {
		r := &request{method: "tools/call", rev: protocol.Revision20260728}
		if got, err := s.keys.openState(text); err == nil {
			json.Unmarshal(got, &inputState{})
		}
		if got, err := s.keys.openState(s.keys.sealState(plain)); err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("sealed %q, opened %q (%v)", plain, got, err)
		}
		s.openInput(r, "t", nil, responses, text)
		var st inputState
		json.Unmarshal(state, &st)
		st.Binding = binding{r, "t", nil}.digest()
		st.Expires = time.Now().Add(time.Hour).UnixMilli()
		raw, _ := json.Marshal(st)
		s.openInput(r, "t", nil, responses, s.keys.sealState(raw))
	})
}

// Cursors stay short: 24 characters for the empty ID and an offset below
// 128, three more for a two-byte ID (27, as long as the cursors of a
// per-process generation were).
func TestCursorLength(t *testing.T) {
	s := fuzzServer(t)
	if c := s.makeCursor(listTools, listTag{}, 100); len(c) != 27 { // sealed with "k1"
		t.Errorf("cursor %q is %d characters", c, len(c))
	}
	s = NewServer(Implementation{Name: "t"}, &Options{StateKey: bytes.Repeat([]byte{3}, 32)})
	if c := s.makeCursor(listTools, listTag{}, 100); len(c) != 24 {
		t.Errorf("cursor %q is %d characters", c, len(c))
	}
}

// A snapshot's tag is its digest for the whole list, something else for
// every subset, the same for the same subset, and a content digest for
// entries out of the snapshot's order.
func TestListTag(t *testing.T) {
	s := fuzzServer(t)
	for _, n := range []string{"a", "b", "c"} {
		s.tools.add(&entry{tool: newTestTool(n)})
	}
	snap := s.tools.snap
	l := snap.list
	full, sub1, sub2 := snap.tag(l), snap.tag([]*entry{l[0], l[2]}), snap.tag([]*entry{l[0], l[1]})
	if full == sub1 || sub1 == sub2 || full == sub2 || sub1 != snap.tag([]*entry{l[0], l[2]}) {
		t.Errorf("tags %x %x %x", full, sub1, sub2)
	}
	if got := snap.tag([]*entry{l[2], l[0]}); got == sub1 || got != contentTag([]*entry{l[2], l[0]}) {
		t.Errorf("out of order: %x", got)
	}
	if snap.tag(nil) == snap.tag([]*entry{l[0]}) {
		t.Error("the empty subset has the tag of a one-entry subset")
	}
	before := *snap.digest()
	s.tools.remove("c")
	s.tools.add(&entry{tool: newTestTool("c")})
	if *s.tools.snap.digest() != before {
		t.Error("the same list again has another digest")
	}
}

func newTestTool(name string) *tool.Tool { return &tool.Tool{Name: name} }

// Pages are served at once from one snapshot and one key set (the
// digest computed once, the keyed HMAC cloned, never written).
func TestPageConcurrent(t *testing.T) {
	s := fuzzServer(t)
	for i := range 120 {
		s.tools.add(&entry{tool: newTestTool(fmt.Sprintf("t%d", i))})
	}
	wire := func(e *entry) string { return e.tool.Name }
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			list, snap := toolList.snapshot(s)
			if g%2 == 1 {
				list = list[:0:0]
				for i, e := range snap.list {
					if i%3 != 0 {
						list = append(list, e)
					}
				}
			}
			var cursor *string
			seen := 0
			for {
				page, next, err := pageOf(s, listTools, cursor, list, snap, wire)
				if err != nil {
					t.Error(err)
					return
				}
				if seen += len(page); next == nil {
					break
				}
				cursor = next
			}
			if seen != len(list) {
				t.Errorf("saw %d of %d", seen, len(list))
			}
		}()
	}
	wg.Wait()
}
