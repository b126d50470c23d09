package main

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// fakeEnv selects the fake-server mode when the test binary is re-executed
// as the server under load.
const fakeEnv = "MCPLOAD_FAKE_SERVER"

// Fake server modes.
const (
	modeEcho     = "echo"     // a correct echo server that answers out of order
	modeCorrupt  = "corrupt"  // changes one byte of every text over 2000 bytes
	modeIsError  = "iserror"  // answers every 10th "hello" call after the 20th with isError
	modeRPCError = "rpcerror" // answers every 7th "hello" call after the 20th with a JSON-RPC error
	modeDie      = "die"      // exits after 100 tools/call requests
	modeSlowExit = "slowexit" // waits 2.3 s after stdin closes before exiting
)

// fakeMessage is an inbound message as the fake server sees it.
type fakeMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Arguments struct {
			Text string `json:"text"`
		} `json:"arguments"`
	} `json:"params"`
}

// runFakeServer serves stdin/stdout in the given mode until stdin ends. It
// answers tools/call on separate goroutines after a random short pause, so
// pipelined responses come back out of order.
func runFakeServer(mode string) {
	var (
		wmu   sync.Mutex
		out   = bufio.NewWriter(os.Stdout)
		calls atomic.Int64
		wg    sync.WaitGroup
	)
	send := func(v any) {
		b, _ := json.Marshal(v)
		wmu.Lock()
		defer wmu.Unlock()
		out.Write(append(b, '\n'))
		out.Flush()
	}
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			break
		}
		var m fakeMessage
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		switch m.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "fake", "version": "1"},
			}})
		case "notifications/initialized":
			// Exercise the client's handling of server-initiated messages.
			send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "info", "data": "hi"}})
			send(map[string]any{"jsonrpc": "2.0", "id": "srv-1", "method": "ping"})
		case "tools/call":
			n := calls.Add(1)
			if mode == modeDie && n > 100 {
				os.Exit(3)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(rand.IntN(50)) * time.Microsecond)
				send(fakeAnswer(mode, n, m))
			}()
		}
	}
	wg.Wait()
	if mode == modeSlowExit {
		time.Sleep(2300 * time.Millisecond)
	}
}

// fakeAnswer builds the response to the n-th tools/call.
func fakeAnswer(mode string, n int64, m fakeMessage) any {
	text := m.Params.Arguments.Text
	isError := false
	small := text == smallText && n > 20
	switch {
	case mode == modeCorrupt && len(text) > 2000:
		text = text[:500] + "#" + text[501:]
	case mode == modeIsError && small && n%10 == 0:
		isError = true
	case mode == modeRPCError && small && n%7 == 0:
		return map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32603, "message": "boom"}}
	}
	return map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
		"content": []any{map[string]any{"type": "text", "text": text}},
		"isError": isError,
	}}
}
