package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Dir is the direction a line travelled in.
type Dir int

const (
	// ClientToServer is a line the client wrote to the server's stdin.
	ClientToServer Dir = iota
	// ServerToClient is a line the server wrote to its stdout.
	ServerToClient
)

// String names the direction as an arrow, for transcripts.
func (d Dir) String() string {
	if d == ClientToServer {
		return "->"
	}
	return "<-"
}

// headBytes is how much of each line a Line keeps as text for reports.
const headBytes = 400

// Line is one newline-terminated message seen on the wire, with the fields
// the checks need already decoded. Lines that are not JSON-RPC objects keep
// Valid false.
type Line struct {
	Seq  int       // position in the transcript, from 0, both directions together
	Dir  Dir       // who wrote it
	At   time.Time // when the tap saw its final byte
	Len  int       // length in bytes, without the newline
	Head string    // the first bytes of the line, for reports

	Valid   bool            // it decoded as a JSON object with "jsonrpc":"2.0"
	ID      string          // the raw JSON of "id", or "" when absent
	Method  string          // "method", for requests and notifications
	Params  json.RawMessage // "params", as sent
	Result  json.RawMessage // "result", for success responses
	ErrCode int             // error.code, for error responses
	ErrMsg  string          // error.message, for error responses
	ErrData json.RawMessage // error.data, for error responses that carry it
	IsError bool            // it is an error response

	Exchange int // the HTTP exchange (Exchange.N) that carried it; 0 over stdio
}

// IsRequest reports whether the line is a request (a method and an id).
func (l Line) IsRequest() bool { return l.Method != "" && l.ID != "" }

// IsNotification reports whether the line is a notification (a method, no id).
func (l Line) IsNotification() bool { return l.Method != "" && l.ID == "" }

// IsResponse reports whether the line is a response (an id and no method).
func (l Line) IsResponse() bool { return l.Method == "" && l.ID != "" }

// Wire is the transcript of one connection. Its methods are safe for
// concurrent use.
type Wire struct {
	mu        sync.Mutex
	lines     []Line
	partial   [2][]byte
	exchanges []Exchange
	notes     []note
}

// note is a line of the transcript that is no message: an HTTP exchange's
// outcome, noted before the message at index at.
type note struct {
	at   int
	text string
	t    time.Time
}

// Feed records bytes seen travelling in direction d; every completed line
// joins the transcript. The taps call it; tests may too.
func (w *Wire) Feed(d Dir, p []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial[d] = append(w.partial[d], p...)
			return
		}
		line := append(w.partial[d], p[:i]...)
		w.partial[d] = nil
		p = p[i+1:]
		w.lines = append(w.lines, parseLine(len(w.lines), d, line))
	}
}

// parseLine decodes the fields of one line that the checks look at.
func parseLine(seq int, d Dir, raw []byte) Line {
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	l := Line{Seq: seq, Dir: d, At: time.Now(), Len: len(raw), Head: head(raw)}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return l
	}
	l.Valid = m.JSONRPC == "2.0"
	l.ID = string(m.ID)
	l.Method = m.Method
	l.Params = m.Params
	l.Result = m.Result
	if m.Error != nil {
		l.IsError = true
		l.ErrCode = m.Error.Code
		l.ErrMsg = m.Error.Message
		l.ErrData = m.Error.Data
	}
	return l
}

// head returns the start of a line, cut on a UTF-8 boundary.
func head(raw []byte) string {
	if len(raw) <= headBytes {
		return string(raw)
	}
	cut := headBytes
	for cut > 0 && raw[cut]&0xC0 == 0x80 {
		cut--
	}
	return string(raw[:cut]) + "…"
}

// Transcript renders the transcript, one message a line: "->" for the
// client's, "<-" for the server's, each cut to its first few hundred bytes,
// with the HTTP exchanges noted as "##" lines where their responses came.
func (w *Wire) Transcript() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	notes := w.notes
	for i, l := range w.lines {
		for len(notes) > 0 && notes[0].at <= i {
			fmt.Fprintf(&b, "## %s\n", notes[0].text)
			notes = notes[1:]
		}
		if l.Exchange > 0 {
			fmt.Fprintf(&b, "%s #%d %s\n", l.Dir, l.Exchange, l.Head)
		} else {
			fmt.Fprintf(&b, "%s %s\n", l.Dir, l.Head)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "## %s\n", n.text)
	}
	return b.String()
}

// Lines returns a copy of the transcript so far.
func (w *Wire) Lines() []Line {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Line(nil), w.lines...)
}

// Len returns the number of complete lines recorded so far.
func (w *Wire) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.lines)
}

// FirstClientLine returns the head of the first line the client wrote, or ""
// when it wrote none.
func (w *Wire) FirstClientLine() string {
	for _, l := range w.Lines() {
		if l.Dir == ClientToServer {
			return l.Head
		}
	}
	return ""
}

// ResponseTo returns the server's response to the client request with the
// given raw id, if one was seen.
func (w *Wire) ResponseTo(id string) (Line, bool) {
	for _, l := range w.Lines() {
		if l.Dir == ServerToClient && l.IsResponse() && l.ID == id {
			return l, true
		}
	}
	return Line{}, false
}
