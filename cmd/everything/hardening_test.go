package main

import (
	"bufio"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A client that stops reading stdout cannot make the server unstoppable:
// after 100 echo calls of 1 MiB and a flood of pings that fill every queue,
// a signal or the end of stdin (with pings still unread in the pipe) stops
// the server, which exits with status 0 within about 2 s.
func TestStalledClientCannotWedgeShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("moves about 100 MiB through pipes")
	}
	for _, stop := range []string{"eof", "SIGTERM", "SIGINT"} {
		t.Run(stop, func(t *testing.T) {
			s := startRaw(t)
			s.initialize()
			flood := make(chan struct{})
			go func() {
				defer close(flood)
				text := strings.Repeat("x", 1<<20)
				w := bufio.NewWriterSize(s.in, 1<<16)
				for i := 1; i <= 100; i++ {
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`+"\n", i, text)
				}
				for i := 0; i < 1_000_000; i++ {
					if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":"p%d","method":"ping"}`+"\n", i); err != nil {
						return
					}
				}
				w.Flush()
			}()
			s.waitStalled()
			start := time.Now()
			switch stop {
			case "eof":
				s.in.Close()
			case "SIGTERM":
				s.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				s.cmd.Process.Signal(syscall.SIGINT)
			}
			d := s.waitExit(10 * time.Second).Sub(start)
			t.Logf("exited %v after %s", d, stop)
			if d > 2500*time.Millisecond {
				t.Errorf("exit took %v after %s, want about 2s at most", d, stop)
			}
			s.in.Close()
			<-flood
		})
	}
}

// The bytes held by queued calls are bounded, not their number: with 64
// slow calls holding every handler slot, 100 echo calls of 15 MiB each are
// mostly refused as overloaded at once instead of being held (about 1.5 GB),
// and every request still gets exactly one response (a cancelled one none).
//
// The slow calls would run for 300 s, so however long the echo calls take
// to write (18 s on a loaded CI machine), no slot frees up before the test
// cancels them; the echo calls still queued then run and are answered.
func TestQueuedCallBytesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("moves about 1.5 GB through a pipe")
	}
	s := startRaw(t)
	type answer struct {
		id         string
		overloaded bool
	}
	answers := make(chan answer, 256)
	s.initialize()
	go func() {
		for {
			line, err := s.readLine()
			if err != nil {
				close(answers)
				return
			}
			id := line[strings.Index(line, `"id":`)+5:]
			id = id[:strings.IndexAny(id, ",}")]
			answers <- answer{id, strings.Contains(line, `"reason":"overloaded"`)}
		}
	}()
	for i := 1; i <= 64; i++ {
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"slow%d","method":"tools/call","params":{"name":"slow","arguments":{"steps":30,"delay_ms":10000}}}`, i))
	}
	text := strings.Repeat("y", 15<<20)
	wroteAt := time.Now()
	w := bufio.NewWriterSize(s.in, 1<<20)
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`, i)
		w.WriteString(text)
		w.WriteString("\"}}}\n")
	}
	w.Flush()
	t.Logf("wrote the echo calls in %v", time.Since(wroteAt))
	seen, overloaded := map[string]bool{}, 0
	take := func(a answer, ok bool) {
		t.Helper()
		if !ok {
			t.Fatalf("the server closed stdout after %d answers", len(seen))
		}
		if strings.HasPrefix(a.id, `"slow`) {
			t.Fatalf("slow call %s answered while it should still hold its slot", a.id)
		}
		if seen[a.id] {
			t.Fatalf("two responses for id %s", a.id)
		}
		seen[a.id] = true
		if a.overloaded {
			overloaded++
		}
	}
	// Refusals come as the lines are read; once none has come for 3 s, the
	// rest are queued behind the slow calls.
	for quiet := false; !quiet && len(seen) < 100; {
		select {
		case a, ok := <-answers:
			take(a, ok)
		case <-time.After(3 * time.Second):
			quiet = true
		}
	}
	peak := s.peakRSS()
	for i := 1; i <= 64; i++ {
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow%d"}}`, i))
	}
	timeout := time.After(60 * time.Second)
	for len(seen) < 100 {
		select {
		case a, ok := <-answers:
			take(a, ok)
		case <-timeout:
			t.Fatalf("only %d of the 100 echo calls answered", len(seen))
		}
	}
	if p := s.peakRSS(); p > peak {
		peak = p
	}
	s.in.Close()
	s.waitExit(10 * time.Second)
	for a := range answers {
		t.Errorf("an answer after the last echo call: id %s (the slow calls were cancelled)", a.id)
	}
	if overloaded < 90 {
		t.Errorf("%d echo calls refused as overloaded, want most of the 100", overloaded)
	}
	if peak > 1<<30 {
		t.Errorf("peak RSS %d MiB, want the queued bytes bounded (under 1 GiB)", peak>>20)
	}
	t.Logf("peak RSS %d MiB, %d of 100 echo calls refused as overloaded", peak>>20, overloaded)
}

// Open subscriptions/listen streams per connection are bounded: of 2,000
// opened at once, the first 16 are acknowledged and the rest refused with
// -32603, so one tool-list change sends 16 notifications, not 2,000.
func TestListenStreamsBounded(t *testing.T) {
	s := startRaw(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"subscriptions/listen","params":{%s,"notifications":{"toolsListChanged":true}}}`+"\n", i, meta)
	}
	go s.trySend(strings.TrimSuffix(b.String(), "\n")) // one write: all at once
	acks, refused, changes := 0, 0, 0
	for acks+refused < 2000 {
		switch line := s.next(); {
		case strings.Contains(line, "notifications/subscriptions/acknowledged"):
			acks++
		case strings.Contains(line, "16 subscriptions/listen streams are already open"):
			refused++
		default:
			t.Fatalf("unexpected line: %.300s", line)
		}
	}
	if acks != 16 {
		t.Errorf("%d listen streams acknowledged, want 16", acks)
	}
	s.send(`{"jsonrpc":"2.0","id":"change","method":"tools/call","params":{` + meta + `,"name":"test_trigger_tool_change"}}`)
	for {
		line := s.next()
		if strings.Contains(line, "notifications/tools/list_changed") {
			changes++
			continue
		}
		if !strings.Contains(line, `"id":"change"`) {
			t.Fatalf("unexpected line: %.300s", line)
		}
		break
	}
	if changes != 16 {
		t.Errorf("one tool-list change sent %d notifications, want one per open stream (16)", changes)
	}
}

// Errors never echo huge input: a 10 MiB tool name, method name, log level
// or protocol version comes back clipped in a short error.
func TestErrorsDoNotEchoHugeInput(t *testing.T) {
	huge := strings.Repeat("q", 10<<20)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`
	tests := []struct{ name, line string }{
		{"tool name", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + huge + `"}}`},
		{"method name", `{"jsonrpc":"2.0","id":2,"method":"` + huge + `"}`},
		{"setLevel level", `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"` + huge + `"}}`},
		{"modern log level", `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{` + meta + `,"io.modelcontextprotocol/logLevel":"` + huge + `"}}}`},
		{"protocol version", `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + huge + `","io.modelcontextprotocol/clientCapabilities":{}}}}`},
	}
	s := startRaw(t)
	s.initialize()
	for _, tt := range tests {
		go s.trySend(tt.line)
		line, err := s.readLine()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !strings.Contains(line, `"error"`) || len(line) > 4096 {
			t.Errorf("%s: got a %d-byte answer, want a short error: %.300s", tt.name, len(line), line)
		}
		if !strings.Contains(line, "(10485760 bytes)") {
			t.Errorf("%s: the error does not give the input's length: %.300s", tt.name, line)
		}
	}
}
