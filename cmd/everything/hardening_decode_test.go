package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// decResponse is one line the server wrote.
type decResponse struct {
	line   string
	hasID  bool
	ID     string // raw id token
	Result json.RawMessage
	Error  *struct {
		Code    int64
		Message string
	}
}

// decNext parses the next line the server writes, waiting at most
// lineTimeout (10 s).
func decNext(s *rawServer) decResponse {
	s.t.Helper()
	l := s.next()
	var env struct {
		ID     *json.RawMessage
		Result json.RawMessage
		Error  *struct {
			Code    int64
			Message string
		}
	}
	if err := json.Unmarshal([]byte(l), &env); err != nil {
		s.t.Fatalf("server wrote %.200q: %v", l, err)
	}
	r := decResponse{line: strings.TrimSpace(l), Result: env.Result, Error: env.Error}
	if env.ID != nil {
		r.hasID, r.ID = true, string(*env.ID)
	}
	return r
}

// expectDecodeError checks that r is an error with code and a message holding
// msg, carrying id (the raw token) or, when id is "", no id member at all.
func expectDecodeError(t *testing.T, r decResponse, code int64, id, msg string) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code || !strings.Contains(r.Error.Message, msg) {
		t.Errorf("got %.300s, want error %d with %q", r.line, code, msg)
	}
	switch {
	case id == "" && r.hasID:
		t.Errorf("got %.300s, want no id member", r.line)
	case id != "" && r.ID != id:
		t.Errorf("got %.300s, want id %s", r.line, id)
	}
}

// decPaddedPing is a ping request with the given id, padded with params to
// exactly size bytes.
func decPaddedPing(id, size int) string {
	head := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"ping","params":{"pad":"`
	const tail = `"}}`
	return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
}

// TestRawWireDecodeRules sends, over real pipes, the messages whose id
// rules and size limit the hardening issue fixed, and then a ping, which
// must still be answered.
func TestRawWireDecodeRules(t *testing.T) {
	s := startRaw(t)
	s.initialize()

	// An over-deep message whose id came first is answered with that id.
	s.send(`{"jsonrpc":"2.0","id":7,"method":"x","params":` + strings.Repeat("[", 2000))
	expectDecodeError(t, decNext(s), -32600, "7", "nesting deeper than 1000 levels")

	// Two ids: which one the sender meant is unknown, so neither is used.
	s.send(`{"jsonrpc":"2.0","id":8,"method":"ping","id":9}`)
	expectDecodeError(t, decNext(s), -32600, "", `duplicate key "id"`)

	// The default limit counts the line without its newline: a line of
	// exactly the limit is served, one byte more is refused (with the id,
	// which comes before the cut).
	const limit = transport.DefaultMaxMessageBytes
	s.send(decPaddedPing(20, limit))
	if r := decNext(s); r.ID != "20" || r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("ping of exactly %d bytes: got %.300s, want its result", limit, r.line)
	}
	s.send(decPaddedPing(21, limit+1))
	expectDecodeError(t, decNext(s), -32600, "21", fmt.Sprintf("exceeds the %d-byte limit", limit))

	s.send(`{"jsonrpc":"2.0","id":22,"method":"ping"}`)
	if r := decNext(s); r.ID != "22" || r.Error != nil {
		t.Errorf("ping after the refused lines: got %s, want its result", r.line)
	}
}

// TestRawWireHugeLineMemory writes a 200 MiB line with no newline and
// checks that the server's resident memory stays bounded: it keeps the
// first bytes of an oversize line and discards the rest.
func TestRawWireHugeLineMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MiB")
	}
	s := startRaw(t)
	s.initialize()
	s.rss() // skips the test where there is no /proc
	const (
		total = 200 << 20
		chunk = 1 << 20
		bound = 100 << 20
	)
	if _, err := s.in.WriteString(`{"jsonrpc":"2.0","id":30,"method":"ping","params":{"pad":"`); err != nil {
		t.Fatal(err)
	}
	buf := bytes.Repeat([]byte("x"), chunk)
	var peakRSS int64
	for written := 0; written < total; written += chunk {
		if _, err := s.in.Write(buf); err != nil {
			t.Fatalf("after %d MiB: %v", written>>20, err)
		}
		if written%(8<<20) == 0 {
			peakRSS = max(peakRSS, s.rss())
		}
	}
	// Every write but the last pipe's worth has been read by now.
	hwm := s.peakRSS()
	t.Logf("200 MiB line: peak VmRSS sampled %.1f MiB, VmHWM %.1f MiB", float64(peakRSS)/(1<<20), float64(hwm)/(1<<20))
	if hwm > bound || peakRSS > bound {
		t.Errorf("server memory reached %d bytes (VmHWM) / %d (VmRSS), want under %d", hwm, peakRSS, bound)
	}
	if err := s.in.Close(); err != nil {
		t.Fatal(err)
	}
	expectDecodeError(t, decNext(s), -32600, "30", fmt.Sprintf("exceeds the %d-byte limit", transport.DefaultMaxMessageBytes))
	s.waitExit(10 * time.Second)
}
