package transport_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// FuzzStream feeds arbitrary bytes through a Stream. It checks that every
// non-blank line gives exactly one result, in order, and that the result is
// what jsonrpc.Decode gives for that line (or the size error for a line over
// the limit). limit, when not zero, sets a small MaxMessageBytes so that the
// oversize path is exercised too. Seeds are in testdata/fuzz/FuzzStream.
func FuzzStream(f *testing.F) {
	f.Add([]byte(ping+"\r\n\n"+ping), byte(0))
	f.Add([]byte("x\n \n"+ping+"\n"), byte(2))
	// A short oversize line ending in a number id, with each line ending.
	for _, end := range []string{"\n", "\r\n", "\r", ""} {
		f.Add([]byte(`{"jsonrpc":"2.0","id":1`+end), byte(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, limit byte) {
		opts := transport.Options{}
		max := transport.DefaultMaxMessageBytes
		if limit > 0 {
			max = int(limit) * 8
			opts.MaxMessageBytes = max
		}
		want := expectedResults(data, max)

		s := transport.NewStream(bytes.NewReader(bytes.Clone(data)), io.Discard, opts)
		defer s.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var got []result
		for {
			msg, err := s.Read(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			var de *jsonrpc.DecodeError
			if err != nil && !errors.As(err, &de) {
				t.Fatalf("Read: %v", err)
			}
			got = append(got, result{msg, err})
		}
		if len(got) != len(want) {
			t.Fatalf("%d results for %d non-blank lines", len(got), len(want))
		}
		for i := range want {
			checkResult(t, i, want[i], got[i])
		}
	})
}

// expected is what one non-blank input line should give.
type expected struct {
	line     []byte
	oversize bool
	msg      jsonrpc.Message
	err      *jsonrpc.DecodeError
}

// expectedResults splits data into lines the way the framing is documented:
// at "\n", without one trailing "\r", skipping lines of JSON whitespace.
func expectedResults(data []byte, max int) []expected {
	var out []expected
	for _, seg := range bytes.Split(data, []byte("\n")) {
		if len(bytes.Trim(seg, " \t\r")) == 0 {
			continue
		}
		line := bytes.TrimSuffix(seg, []byte("\r"))
		e := expected{line: line, oversize: len(line) > max}
		if !e.oversize {
			msg, err := jsonrpc.Decode(bytes.Clone(line))
			e.msg = msg
			errors.As(err, &e.err)
		}
		out = append(out, e)
	}
	return out
}

var fuzzMsgOpts = cmp.Options{
	cmp.Comparer(func(a, b jsonrpc.ID) bool { return a.Raw() == b.Raw() }),
	cmpopts.EquateEmpty(),
}

func checkResult(t *testing.T, i int, want expected, got result) {
	t.Helper()
	de := decodeError(got)
	if want.oversize {
		if de == nil || de.Err.Code != jsonrpc.CodeInvalidRequest {
			t.Fatalf("line %d (%d bytes, oversize): got %#v, want a -32600 error", i, len(want.line), got)
		}
		// The id is read from the line's first 4 KiB without its line
		// ending, so the same bytes give the same id whether "\n", "\r\n"
		// or the end of the input ends the line.
		peek := want.line[:min(len(want.line), 4<<10)]
		if id, wantID := de.ID, jsonrpc.OversizeError(peek, 0).ID; id != wantID {
			t.Fatalf("line %d (oversize): error id %s, want %s from the start of %.100q", i, id, wantID, want.line)
		}
		return
	}
	if want.err != nil {
		if de == nil || de.Err.Code != want.err.Err.Code || de.ID != want.err.ID {
			t.Fatalf("line %d %.100q: got %#v, want error %d id %s", i, want.line, got, want.err.Err.Code, want.err.ID)
		}
		return
	}
	if got.err != nil {
		t.Fatalf("line %d %.100q: got error %v, want %#v", i, want.line, got.err, want.msg)
	}
	if diff := cmp.Diff(want.msg, got.msg, fuzzMsgOpts); diff != "" {
		t.Fatalf("line %d %.100q (-want +got):\n%s", i, want.line, diff)
	}
}
