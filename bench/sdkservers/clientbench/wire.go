package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync/atomic"
)

// The "wire" floor: a hand-written client that uses no MCP library at all.
// It sends pre-encoded 2026-07-28 messages (params._meta naming the
// revision, the empty client capabilities and the client's name, as
// mcpwire's client does) and checks each answer with bytes.Contains. What
// it measures is what the server, the pipes or loopback and the kernel
// cost, with next to nothing spent in the client.

// wireRevision is the revision the floor speaks.
const wireRevision = "2026-07-28"

// wireMeta is the _meta member of every request the floor sends.
const wireMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + wireRevision +
	`","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"clientbench-wire","version":"0"}}`

// wireDiscover is the params of the floor's server/discover.
const wireDiscover = `{` + wireMeta + `}`

// wireCall is what a floor session encodes once per echo text: the end of
// a tools/call line after its id, and the bytes its answer must contain.
type wireCall struct {
	want   string
	suffix []byte // `,"method":"tools/call","params":{...}}`
	needle []byte // the echoed text block
}

// newWireCall encodes the tools/call of the echo tool with want.
func newWireCall(want string) *wireCall {
	text, _ := json.Marshal(want) // a string always encodes
	suffix := `,"method":"tools/call","params":{"name":"echo","arguments":{"text":` + string(text) + `},` + wireMeta + `}}`
	return &wireCall{want: want, suffix: []byte(suffix),
		needle: []byte(`{"type":"text","text":` + string(text) + `}`)}
}

// wireCalls keeps the encoded call of the last text asked for, so that a
// session encodes its call once and not once per call.
type wireCalls struct{ last atomic.Pointer[wireCall] }

// get returns the encoded call that echoes want.
func (w *wireCalls) get(want string) *wireCall {
	if c := w.last.Load(); c != nil && c.want == want {
		return c
	}
	c := newWireCall(want)
	w.last.Store(c)
	return c
}

// wireRequest is the start of every request line, up to its id.
const wireRequest = `{"jsonrpc":"2.0","id":`

// appendRequest appends the request with id whose line continues with
// suffix (the method and params, and the closing brace).
func appendRequest(b []byte, id int64, suffix []byte) []byte {
	b = append(b, wireRequest...)
	b = strconv.AppendInt(b, id, 10)
	return append(b, suffix...)
}

// responseID finds the integer id of a response line with a cheap scan:
// the first `"id":` and the digits after it.
func responseID(line []byte) (int64, bool) {
	i := bytes.Index(line, []byte(`"id":`))
	if i < 0 {
		return 0, false
	}
	var id int64
	j := i + len(`"id":`)
	start := j
	for ; j < len(line) && line[j] >= '0' && line[j] <= '9'; j++ {
		id = id*10 + int64(line[j]-'0')
	}
	return id, j > start
}

// checkDiscover checks the answer to server/discover: it must be a result
// listing the floor's revision.
func checkDiscover(answer []byte) error {
	if !bytes.Contains(answer, []byte(`"result"`)) || !bytes.Contains(answer, []byte(`"`+wireRevision+`"`)) {
		return errors.New("wire: server/discover did not list " + wireRevision + ": " + string(answer))
	}
	return nil
}

// check reports an error unless answer holds c's echoed text.
func (c *wireCall) check(answer []byte) error {
	if !bytes.Contains(answer, c.needle) {
		return errors.New("wire: unexpected echo answer " + string(answer))
	}
	return nil
}

// connectWire returns the floor over stdio or over HTTP.
func connectWire(ctx context.Context, t target) (session, error) {
	if t.url == "" {
		return connectWireStdio(ctx, t.command)
	}
	return connectWireHTTP(ctx, t.url, t.http)
}
