package golden

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Step is one client line and the server lines expected after it.
type Step struct {
	Client   string   // the client line or directive, without "> "
	Expected []string // the server lines, without "< "
	Line     int      // line number of the client line in the file
	// ExpectedLines are the line numbers of the Expected lines in the
	// file, one for one (Load sets them; a Step built otherwise may have
	// none).
	ExpectedLines []int
	// Notes are the "#" lines of the session written just before the
	// client line (prose, such as a recorder's remark that a line is not
	// JSON); Load keeps them so that a rewrite keeps them too.
	Notes []string
}

// expectedLine returns the file line of expected line j, or the client
// line's when Load did not read the step.
func (s Step) expectedLine(j int) int {
	if j < len(s.ExpectedLines) {
		return s.ExpectedLines[j]
	}
	return s.Line
}

// Transcript is a parsed golden file.
type Transcript struct {
	Path   string
	Header []string          // prose and config lines, kept for rewriting
	Config map[string]string // from the -- config -- section
	Steps  []Step
	// Trailer holds the "#" lines after the last step.
	Trailer []string
}

// Load parses a transcript file.
func Load(path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t := &Transcript{Path: path, Config: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	section := "header"
	var notes []string // session "#" lines waiting for their client line
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "-- config --":
			section = "config"
			t.Header = append(t.Header, line)
		case line == "-- session --":
			section = "session"
		case section != "session":
			t.Header = append(t.Header, line)
			if section == "config" && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
				k, v, ok := strings.Cut(line, "=")
				if !ok {
					return nil, fmt.Errorf("%s:%d: config lines are key=value", path, n)
				}
				t.Config[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		case strings.HasPrefix(line, "> "):
			t.Steps = append(t.Steps, Step{Client: line[2:], Line: n, Notes: notes})
			notes = nil
		case strings.HasPrefix(line, "< "):
			if len(t.Steps) == 0 {
				return nil, fmt.Errorf("%s:%d: a server line before any client line", path, n)
			}
			s := &t.Steps[len(t.Steps)-1]
			s.Expected = append(s.Expected, line[2:])
			s.ExpectedLines = append(s.ExpectedLines, n)
		case strings.HasPrefix(line, "#"):
			notes = append(notes, line)
		case strings.TrimSpace(line) == "":
		default:
			return nil, fmt.Errorf("%s:%d: session lines start with \"> \" or \"< \"", path, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	t.Trailer = notes
	if len(t.Header) == 0 || !strings.HasPrefix(t.Header[0], "#") {
		return nil, fmt.Errorf("%s: a transcript starts with a prose header of # lines", path)
	}
	return t, nil
}

// Format renders the transcript back to its file form.
func (t *Transcript) Format() string {
	var b strings.Builder
	for _, h := range t.Header {
		b.WriteString(h + "\n")
	}
	b.WriteString("-- session --\n")
	for _, s := range t.Steps {
		for _, n := range s.Notes {
			b.WriteString(n + "\n")
		}
		b.WriteString("> " + s.Client + "\n")
		for _, e := range s.Expected {
			b.WriteString("< " + e + "\n")
		}
	}
	for _, n := range t.Trailer {
		b.WriteString(n + "\n")
	}
	return b.String()
}
