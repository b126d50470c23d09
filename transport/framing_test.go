package transport_test

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

func TestFraming(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		methods []string // "!" for a decode error
	}{
		{"one line", ping + "\n", []string{"ping"}},
		{"crlf", ping + "\r\n" + `{"jsonrpc":"2.0","method":"b"}` + "\r\n", []string{"ping", "b"}},
		{"blank lines skipped", "\n\n" + ping + "\n\n\n" + ping + "\n", []string{"ping", "ping"}},
		{"whitespace-only lines skipped", " \n\t\n\r\n \t \r\n" + ping + "\n   \n", []string{"ping"}},
		{"last line without newline", ping + "\n" + `{"jsonrpc":"2.0","method":"last"}`, []string{"ping", "last"}},
		{"only line without newline", ping, []string{"ping"}},
		{"last line with cr only", ping + "\r", []string{"ping"}},
		{"empty input", "", nil},
		{"only blank lines", "\n\r\n  \n", nil},
		{"bad line then good line", "not json\n" + ping + "\n", []string{"!", "ping"}},
		{"invalid request keeps going", `{"jsonrpc":"1.0","id":1,"method":"x"}` + "\n" + ping + "\n", []string{"!", "ping"}},
		{"message split over lines", "{\n" + `"jsonrpc":"2.0","method":"x"}` + "\n", []string{"!", "!"}},
		{"leading spaces", "   " + ping + "  \n", []string{"ping"}},
		{"two crs", ping + "\r\r\n", []string{"ping"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readString(t, tt.input, transport.Options{})
			var methods []string
			for _, r := range got {
				if r.err != nil {
					methods = append(methods, "!")
					continue
				}
				methods = append(methods, method(r))
			}
			if strings.Join(methods, ",") != strings.Join(tt.methods, ",") {
				t.Errorf("got %q, want %q", methods, tt.methods)
			}
		})
	}
}

func TestDecodeErrorsCarryID(t *testing.T) {
	got := readString(t, `{"jsonrpc":"2.0","id":"r1","method":"m","Method":"n"}`+"\n"+"{oops\n", transport.Options{})
	if len(got) != 2 {
		t.Fatalf("got %d results, want 2", len(got))
	}
	if de := decodeError(got[0]); de == nil || de.Err.Code != jsonrpc.CodeInvalidRequest || de.ID.Raw() != `"r1"` {
		t.Errorf("first: %v, want -32600 with id \"r1\"", got[0].err)
	}
	if de := decodeError(got[1]); de == nil || de.Err.Code != jsonrpc.CodeParseError || de.ID.IsValid() {
		t.Errorf("second: %v, want -32700 without id", got[1].err)
	}
}

func TestLargeLines(t *testing.T) {
	for _, size := range []int{64<<10 - 1, 64 << 10, 64<<10 + 1, 1 << 20, 8 << 20} {
		src := newLineSource("5", size, ping+"\n")
		s := transport.NewStream(src, io.Discard, transport.Options{})
		got := readAll(t, s)
		s.Close()
		if len(got) != 2 {
			t.Fatalf("size %d: got %d results, want 2", size, len(got))
		}
		req, ok := got[0].msg.(*jsonrpc.Request)
		if !ok {
			t.Fatalf("size %d: first result %v, want a request", size, got[0].err)
		}
		if want := size - len(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":`) - 1; len(req.Params) != want {
			t.Errorf("size %d: params of %d bytes, want %d", size, len(req.Params), want)
		}
		if method(got[1]) != "ping" {
			t.Errorf("size %d: second result %#v, want ping", size, got[1])
		}
	}
}

func TestMaxMessageBytes(t *testing.T) {
	const max = 1000
	tests := []struct {
		name   string
		size   int    // length of the padded line
		id     string // id in the line
		wantID string // id the error must carry
	}{
		{"one over", max + 1, "9", "9"},
		{"far over", 100 * max, `"big"`, `"big"`},
		{"past the bufio buffer", 200 << 10, "12345", "12345"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newLineSource(tt.id, tt.size, ping+"\n")
			s := transport.NewStream(src, io.Discard, transport.Options{MaxMessageBytes: max})
			defer s.Close()
			got := readAll(t, s)
			if len(got) != 2 {
				t.Fatalf("got %d results, want 2", len(got))
			}
			de := decodeError(got[0])
			if de == nil || de.Err.Code != jsonrpc.CodeInvalidRequest {
				t.Fatalf("first result %#v, want a -32600 DecodeError", got[0])
			}
			if de.ID.Raw() != tt.wantID {
				t.Errorf("id = %q, want %q", de.ID.Raw(), tt.wantID)
			}
			if method(got[1]) != "ping" {
				t.Errorf("line after the oversize one: %#v, want ping", got[1])
			}
		})
	}
	// Lines at the limit pass, with or without CR; one byte more does not.
	at := newLineSource("1", max, "")
	line, _ := io.ReadAll(at)
	line = bytes.TrimSuffix(line, []byte("\n"))
	for _, tt := range []struct {
		input string
		ok    bool
	}{
		{string(line) + "\n", true},
		{string(line) + "\r\n", true},
		{string(line), true},
		{" " + string(line) + "\n", false},
		{" " + string(line), false},
	} {
		got := readString(t, tt.input, transport.Options{MaxMessageBytes: max})
		if len(got) != 1 || (got[0].err == nil) != tt.ok {
			t.Errorf("line of %d bytes + %q: %#v, want ok=%v", len(strings.TrimRight(tt.input, "\r\n")), tt.input[len(tt.input)-1:], got, tt.ok)
		}
	}
	// An id that is not in the first bytes is not reported.
	far := `{"jsonrpc":"2.0","method":"m","params":{"pad":"` + strings.Repeat("x", 10<<10) + `"},"id":3}` + "\n"
	got := readString(t, far, transport.Options{MaxMessageBytes: max})
	if len(got) != 1 || decodeError(got[0]) == nil || decodeError(got[0]).ID.IsValid() {
		t.Errorf("oversize line with a late id: %#v, want an error without id", got)
	}
}

func TestOversizeBlankLineIsSkipped(t *testing.T) {
	input := strings.Repeat(" ", 5000) + "\r\n" + strings.Repeat("\t", 100) + "\n" + ping + "\n"
	got := readString(t, input, transport.Options{MaxMessageBytes: 64})
	if len(got) != 1 || method(got[0]) != "ping" {
		t.Errorf("got %#v, want only ping", got)
	}
}

func TestOversizeLineMemoryIsBounded(t *testing.T) {
	const max = 1 << 20
	src := newLineSource("64", 64<<20, ping+"\n")
	s := transport.NewStream(src, io.Discard, transport.Options{MaxMessageBytes: max})
	defer s.Close()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := readAll(t, s)
	runtime.ReadMemStats(&after)

	if len(got) != 2 || decodeError(got[0]) == nil || method(got[1]) != "ping" {
		t.Fatalf("got %#v, want an error then ping", got)
	}
	if id := decodeError(got[0]).ID.Raw(); id != "64" {
		t.Errorf("error id = %q, want 64", id)
	}
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("reading a 64 MiB line with a 1 MiB limit allocated %.2f MiB", float64(grew)/(1<<20))
	if grew > 8<<20 {
		t.Errorf("TotalAlloc grew by %d bytes, want < 8 MiB", grew)
	}
}
