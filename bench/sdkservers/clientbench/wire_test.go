package main

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestResponseID checks the id scan on the lines a server answers with.
func TestResponseID(t *testing.T) {
	for line, want := range map[string]int64{
		`{"jsonrpc":"2.0","id":42,"result":{}}`: 42,
		`{"jsonrpc":"2.0","id":0,"error":{}}`:   0,
		`{"id":7}`:                              7,
	} {
		if got, ok := responseID([]byte(line)); !ok || got != want {
			t.Errorf("responseID(%s) = %d, %v; want %d", line, got, ok, want)
		}
	}
	for _, line := range []string{`{"jsonrpc":"2.0","method":"x"}`, `{"id":"a"}`, `{"id":null}`} {
		if _, ok := responseID([]byte(line)); ok {
			t.Errorf("responseID(%s) found an id", line)
		}
	}
}

// TestWireCall checks the encoded call and its answer check.
func TestWireCall(t *testing.T) {
	var calls wireCalls
	c := calls.get(`a "quoted" text`)
	if calls.get(`a "quoted" text`) != c {
		t.Error("the same text was encoded twice")
	}
	line := appendRequest(nil, 12, c.suffix)
	if !bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call"`)) ||
		!bytes.Contains(line, []byte(`"arguments":{"text":"a \"quoted\" text"}`)) {
		t.Errorf("request line %s", line)
	}
	if err := c.check([]byte(`{"id":12,"result":{"content":[{"type":"text","text":"a \"quoted\" text"}]}}`)); err != nil {
		t.Error(err)
	}
	if err := c.check([]byte(`{"id":12,"result":{"content":[{"type":"text","text":"other"}]}}`)); err == nil {
		t.Error("a wrong echo passed the check")
	}
}

// TestWireStdioConcurrent has 16 goroutines share one floor session whose
// "server" is cat: each line comes back as it was sent, so each caller
// must get back its own line, whatever the order of the others.
func TestWireStdioConcurrent(t *testing.T) {
	s, err := startWireStdio([]string{"cat"})
	if err != nil {
		t.Skip("no cat:", err)
	}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 200 {
				mark := fmt.Sprintf(`"call":"%d-%d"`, g, i)
				line, err := s.roundTrip(context.Background(), []byte(","+mark+"}"))
				if err != nil {
					t.Error(err)
					return
				}
				if !bytes.Contains(line, []byte(mark)) {
					t.Errorf("call %s got %s", mark, line)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := s.close(); err != nil {
		t.Error(err)
	}
	if _, err := s.roundTrip(context.Background(), []byte("}")); err == nil {
		t.Error("a call after close succeeded")
	}
}
