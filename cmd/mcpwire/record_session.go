package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
	"github.com/mcpwire/mcpwire/protocol"
)

// flushDelay is how long after a line the transcript file is rewritten:
// lines that come together are written once, and a host that kills the
// recorder with SIGKILL loses at most this much of the session's tail.
var flushDelay = 100 * time.Millisecond

// session is the transcript being recorded: the lines of both sides in the
// order the relay saw them, and what the header says. Its methods are safe
// for concurrent use (the two relay directions call them).
type session struct {
	path    string
	started time.Time
	argv    []string
	note    string

	mu      sync.Mutex
	client  string   // clientInfo, "" until seen
	server  string   // serverInfo, "" until seen
	early   []string // server lines before any client line
	steps   []golden.Step
	trailer []string
	ended   bool        // a !close step has been recorded
	timer   *time.Timer // the pending rewrite, nil when none

	writeMu sync.Mutex // one rewrite of the file at a time
	err     error      // the last write's error
}

// newSession writes an empty transcript to path, so that a path that
// cannot be written is found before the server starts.
func newSession(path string, argv []string, note string) (*session, error) {
	s := &session{path: path, started: time.Now().UTC(), argv: argv, note: note}
	return s, s.write()
}

// clientLine records a line the host wrote.
func (s *session) clientLine(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := golden.Step{Client: line}
	if obj, ok := object(line); ok {
		if s.client == "" {
			s.client = clientInfoOf(obj)
		}
	} else {
		st.Notes = []string{"# the client line below is not JSON"}
	}
	s.steps = append(s.steps, st)
	s.changed()
}

// serverLine records a line the server wrote.
func (s *session) serverLine(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	obj, ok := object(line)
	if ok && s.server == "" {
		s.server = serverInfoOf(obj)
	}
	if len(s.steps) == 0 {
		s.early = append(s.early, line)
		s.changed()
		return
	}
	st := &s.steps[len(s.steps)-1]
	st.Expected = append(st.Expected, line)
	if !ok {
		st.Notes = append(st.Notes, fmt.Sprintf("# server line %d after the client line below is not JSON", len(st.Expected)))
	}
	s.changed()
}

// closed records that the host closed its end (a !close step: what the
// server writes after it is expected before its output ends). A second
// close (stdin's EOF after a signal) adds nothing.
func (s *session) closed() { s.close(nil) }

// signalled records that the host ended the session with a signal: a
// !close step, whatever the signal, since what a replay can do to end a
// session is close the server's stdin (the stdio transport's Shutdown
// sequence starts there), and a server that ends its streams on the
// signal ends them on EOF too. A note before the step says which signal.
func (s *session) signalled(sig os.Signal) {
	s.close([]string{"# the host sent " + signalName(sig) + " here; replayed as a close of stdin"})
}

// close appends the !close step, once, with notes.
func (s *session) close(notes []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended = true
	s.steps = append(s.steps, golden.Step{Client: "!close", Notes: notes})
	s.changed()
}

// end records how the server ended and writes the file at once.
func (s *session) end(how string) error {
	s.mu.Lock()
	s.trailer = append(s.trailer, "# "+how)
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
	return s.write()
}

// changed schedules a rewrite of the file; s.mu is held.
func (s *session) changed() {
	if s.timer == nil {
		s.timer = time.AfterFunc(flushDelay, func() {
			s.mu.Lock()
			s.timer = nil
			s.mu.Unlock()
			s.write()
		})
	}
}

// transcript renders what has been recorded, cursors and states named
// by placeholders.
func (s *session) transcript() *golden.Transcript {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := []string{
		"# A session recorded by mcpwire record; replay it with",
		"# mcpwire replay FILE -- CMD [ARGS...].",
		"# recorded: " + s.started.Format(time.RFC3339),
		"# client: " + orUnknown(s.client),
		"# server: " + orUnknown(s.server),
		"# command: " + commandLine(s.argv),
	}
	if s.note != "" {
		for _, n := range strings.Split(s.note, "\n") {
			h = append(h, "# note: "+n)
		}
	}
	h = append(h, "# Add \"# volatile: /json/pointer\" lines to let a value differ on replay.")
	for _, l := range s.early {
		h = append(h, "# server line before any client line (not replayed): "+l)
	}
	tr := &golden.Transcript{Path: s.path, Header: h, Steps: append([]golden.Step(nil), s.steps...),
		Trailer: append([]string(nil), s.trailer...)}
	return golden.NameSealed(tr)
}

// write replaces the file with the transcript so far: a temporary file in
// the same directory, renamed over it, so that a reader (or a recorder
// killed mid-write) never leaves half a file.
func (s *session) write() error {
	text := s.transcript().Format()
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	f, err := os.CreateTemp(filepath.Dir(s.path), "."+filepath.Base(s.path)+".*")
	if err == nil {
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), s.path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}
	s.err = err
	return err
}

// object decodes a line that is one JSON object.
func object(line string) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	return m, json.Unmarshal([]byte(line), &m) == nil
}

// clientInfoOf names the client of an initialize request, or of a
// 2026-07-28 request's _meta.
func clientInfoOf(msg map[string]json.RawMessage) string {
	// _meta is read member by member: its other members (the protocol
	// version, a string) are no implementation.
	var p struct {
		ClientInfo *implementation            `json:"clientInfo"`
		Meta       map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(msg["params"], &p) != nil {
		return ""
	}
	if string(msg["method"]) == `"initialize"` && p.ClientInfo != nil {
		return p.ClientInfo.String() + " (initialize)"
	}
	if ci := metaInfo(p.Meta, protocol.MetaClientInfo); ci != "" {
		return ci + " (" + protocol.MetaClientInfo + ")"
	}
	return ""
}

// serverInfoOf names the server of an initialize or discover result.
func serverInfoOf(msg map[string]json.RawMessage) string {
	var r struct {
		ServerInfo *implementation            `json:"serverInfo"`
		Meta       map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(msg["result"], &r) != nil {
		return ""
	}
	if r.ServerInfo != nil {
		return r.ServerInfo.String()
	}
	return metaInfo(r.Meta, protocol.MetaServerInfo)
}

// metaInfo names the implementation under key of a _meta, "" if none.
func metaInfo(meta map[string]json.RawMessage, key string) string {
	var i implementation
	if raw, ok := meta[key]; !ok || json.Unmarshal(raw, &i) != nil || i.Name == "" {
		return ""
	}
	return i.String()
}

// jsonString decodes a JSON string, "" if raw is not one.
func jsonString(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// implementation is a clientInfo or serverInfo, as much as a header needs.
type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func (i *implementation) String() string { return strings.TrimSpace(i.Name + " " + i.Version) }

func orUnknown(s string) string {
	if s == "" {
		return "(not seen)"
	}
	return s
}

// commandLine renders argv for a reader, quoting an argument that would
// not read back as one word.
func commandLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`") {
			out[i] = strconv.Quote(a)
		}
	}
	return strings.Join(out, " ")
}
