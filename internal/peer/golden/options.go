package golden

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Options adjusts how a replay compares server lines. The zero value
// compares exactly, as Replay and Record do: the project's own transcripts
// use it. A transcript recorded from another server (mcpwire record) is
// replayed with every option on, since the values they cover legitimately
// differ between runs.
type Options struct {
	// Check validates every server line; nil checks nothing.
	Check Checker

	// Timestamps makes a string value that parses as an RFC 3339 time
	// (time.RFC3339, fractional seconds allowed) match any other such
	// string at the same place.
	Timestamps bool

	// Volatile lists JSON pointers (RFC 6901, such as
	// /result/content/0/text) whose values match whatever the server
	// writes there, in every server line; a reference token "*" stands for
	// any one member or element. A pointer names a value only where the
	// expected line has one: a value the expected line lacks is still a
	// difference. Transcript.Volatile reads them from a transcript's
	// header.
	Volatile []string

	// ServerIDs maps the ids of the requests the server sends (elicitation,
	// sampling, roots, ping) by position: an expected server request's id
	// matches the id the server chose, and a later client line answering
	// the expected id (a response whose id is that one) is sent with the
	// server's id instead. A server's notifications/cancelled naming an
	// expected id is compared under the mapping too.
	ServerIDs bool

	// Text makes an expected line that is not JSON match the same text
	// (a recorded server that printed a stray line), instead of being a
	// fault of the transcript.
	Text bool
}

// ReplayWith is Replay with options.
func ReplayWith(tr *Transcript, p *Peer, opts Options) *Outcome {
	return run(tr, p, opts, false)
}

// RecordWith is Record with options; it is how a transcript recorded from
// another server is rewritten (mcpwire replay --update).
func RecordWith(tr *Transcript, p *Peer, opts Options) *Outcome {
	return run(tr, p, opts, true)
}

// volatilePrefix starts a header line naming a volatile JSON pointer.
const volatilePrefix = "# volatile:"

// Volatile returns the JSON pointers the transcript's header marks
// volatile, one per header line of the form
//
//	# volatile: /result/content/0/text
//
// (the rest of the line, trimmed, is the pointer; "*" as a reference token
// matches any member or element, as in /result/tools/*/description). A
// pointer that does not start with "/" is an error.
func (t *Transcript) Volatile() ([]string, error) {
	var out []string
	for _, h := range t.Header {
		rest, ok := strings.CutPrefix(h, volatilePrefix)
		if !ok {
			continue
		}
		ptr := strings.TrimSpace(rest)
		if _, err := splitPointer(ptr); err != nil {
			return nil, fmt.Errorf("%s: %q: %v", t.Path, h, err)
		}
		out = append(out, ptr)
	}
	return out, nil
}

// splitPointer splits a JSON pointer into its unescaped reference tokens.
func splitPointer(ptr string) ([]string, error) {
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("a JSON pointer starts with \"/\"")
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return toks, nil
}

// compileVolatile splits the options' pointers once per run.
func (r *replayer) compileVolatile() error {
	for _, p := range r.opts.Volatile {
		toks, err := splitPointer(p)
		if err != nil {
			return fmt.Errorf("volatile pointer %q: %v", p, err)
		}
		r.volatile = append(r.volatile, toks)
	}
	return nil
}

// normalise returns exp with the values that legitimately differ taken from
// act: those at a volatile pointer and, with Options.Timestamps, RFC 3339
// times where act has one too.
func (r *replayer) normalise(exp, act any) any {
	if !r.opts.Timestamps && len(r.volatile) == 0 {
		return exp
	}
	return r.normaliseAt(nil, exp, act)
}

func (r *replayer) normaliseAt(path []string, exp, act any) any {
	if r.isVolatile(path) {
		return act
	}
	switch e := exp.(type) {
	case string:
		if a, ok := act.(string); ok && r.opts.Timestamps && isTimestamp(e) && isTimestamp(a) {
			return a
		}
	case map[string]any:
		a, _ := act.(map[string]any)
		out := make(map[string]any, len(e))
		for k, v := range e {
			av, ok := a[k]
			if !ok {
				out[k] = v // a member the server left out stays a difference
				continue
			}
			out[k] = r.normaliseAt(append(path[:len(path):len(path)], k), v, av)
		}
		return out
	case []any:
		a, _ := act.([]any)
		out := make([]any, len(e))
		for i, v := range e {
			if i >= len(a) {
				out[i] = v
				continue
			}
			out[i] = r.normaliseAt(append(path[:len(path):len(path)], strconv.Itoa(i)), v, a[i])
		}
		return out
	}
	return exp
}

// isVolatile reports whether path is named by a volatile pointer.
func (r *replayer) isVolatile(path []string) bool {
	for _, toks := range r.volatile {
		if len(toks) != len(path) {
			continue
		}
		same := true
		for i, t := range toks {
			if t != "*" && t != path[i] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// isTimestamp reports whether s is an RFC 3339 date and time.
func isTimestamp(s string) bool {
	_, err := time.Parse(time.RFC3339, s)
	return err == nil
}
