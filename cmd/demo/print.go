package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// maxShown is how many characters of a wire line are printed.
const maxShown = 160

// ANSI styles, used only when the printer has colour on.
const (
	styleBold   = "\x1b[1m"
	styleDim    = "\x1b[2m"
	styleRed    = "\x1b[1;31m"
	styleGreen  = "\x1b[32m"
	styleYellow = "\x1b[33m"
	styleCyan   = "\x1b[36m"
	styleReset  = "\x1b[0m"
)

// printer writes the demo's output: step headings, wire lines with their
// direction and time, and check results. It is not safe for concurrent use.
type printer struct {
	w     io.Writer
	color bool
	start time.Time
}

// newPrinter returns a printer writing to w, with ANSI colour when color is
// true; times are shown relative to now.
func newPrinter(w io.Writer, color bool) *printer {
	return &printer{w: w, color: color, start: time.Now()}
}

// paint wraps s in style when colour is on.
func (p *printer) paint(style, s string) string {
	if !p.color {
		return s
	}
	return style + s + styleReset
}

// stamp is the time since the printer was made, as a fixed-width column.
func (p *printer) stamp() string {
	return p.paint(styleDim, fmt.Sprintf("%7.3fs", time.Since(p.start).Seconds()))
}

// step prints a numbered heading with the step's caption.
func (p *printer) step(n int, caption string) {
	fmt.Fprintf(p.w, "\n%s\n", p.paint(styleBold, fmt.Sprintf("%d. %s", n, caption)))
}

// client prints a line the client wrote to the server's stdin.
func (p *printer) client(line []byte) {
	fmt.Fprintf(p.w, "%s %s  %s\n", p.stamp(), p.paint(styleCyan, "→ client"), display(line))
}

// server prints a line read from the server's stdout; error responses are
// highlighted.
func (p *printer) server(line []byte, isError bool) {
	style := styleGreen
	if isError {
		style = styleYellow
	}
	fmt.Fprintf(p.w, "%s %s  %s\n", p.stamp(), p.paint(style, "← server"), display(line))
}

// ok prints a check that held.
func (p *printer) ok(format string, args ...any) {
	fmt.Fprintf(p.w, "%8s %s\n", "", p.paint(styleGreen, "✓ "+fmt.Sprintf(format, args...)))
}

// fail prints a check that did not hold.
func (p *printer) fail(format string, args ...any) {
	fmt.Fprintf(p.w, "%8s %s\n", "", p.paint(styleRed, "FAIL "+fmt.Sprintf(format, args...)))
}

// note prints a remark, dimmed.
func (p *printer) note(format string, args ...any) {
	fmt.Fprintf(p.w, "%8s %s\n", "", p.paint(styleDim, fmt.Sprintf(format, args...)))
}

// plain prints a line as is.
func (p *printer) plain(format string, args ...any) {
	fmt.Fprintf(p.w, format+"\n", args...)
}

// stderr prints the server's stderr, dimmed, one truncated line each, at
// most limit lines.
func (p *printer) stderr(text []byte, limit int) {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	if len(text) == 0 {
		lines = nil
	}
	p.plain("\n%s", p.paint(styleBold, fmt.Sprintf("server stderr (%s)", plural(len(lines), "line"))))
	for i, l := range lines {
		if i == limit {
			p.plain("  %s", p.paint(styleDim, fmt.Sprintf("… %d more lines", len(lines)-limit)))
			break
		}
		p.plain("  %s", p.paint(styleDim, truncate(sanitize(l), maxShown)))
	}
}

// display renders a wire line for printing: compacted JSON (the raw text
// when it is not JSON), long tools/list results summarised, and everything
// cut to maxShown characters.
func display(line []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, line); err != nil {
		return truncate(sanitize(string(bytes.TrimSpace(line))), maxShown)
	}
	s := b.String()
	if utf8.RuneCountInString(s) > maxShown {
		if sum, ok := summariseToolsList(b.Bytes()); ok {
			s = sum
		}
	}
	return truncate(sanitize(s), maxShown)
}

// summariseToolsList shortens a tools/list result to its tool names and
// cursor; ok is false when line is not one.
func summariseToolsList(line []byte) (string, bool) {
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  *struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
			NextCursor *string `json:"nextCursor"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Result == nil || msg.Result.Tools == nil {
		return "", false
	}
	names := make([]string, len(msg.Result.Tools))
	for i, t := range msg.Result.Tools {
		names[i] = t.Name
	}
	s := fmt.Sprintf(`{"jsonrpc":%q,"id":%s,"result":{"tools":[%d tools: %s]`,
		msg.JSONRPC, msg.ID, len(names), strings.Join(names, ", "))
	if c := msg.Result.NextCursor; c != nil {
		s += fmt.Sprintf(`,"nextCursor":%q`, truncate(*c, 24))
	}
	return s + "}}", true
}

// truncate cuts s to at most n characters, ending with "…" when cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// sanitize replaces control characters, so that raw text cannot break the
// one-line-per-message layout or inject terminal escapes.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '·'
		}
		return r
	}, s)
}

// roundDuration rounds d for display.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond)
	default:
		return d.Round(time.Microsecond)
	}
}

// clientEvent prints something the client did that is not a line.
func (p *printer) clientEvent(what string) {
	fmt.Fprintf(p.w, "%s %s  %s\n", p.stamp(), p.paint(styleCyan, "→ client"), p.paint(styleDim, what))
}

// serverEvent prints something that happened to the server that is not a
// line.
func (p *printer) serverEvent(what string) {
	fmt.Fprintf(p.w, "%s %s  %s\n", p.stamp(), p.paint(styleGreen, "← server"), p.paint(styleDim, what))
}

// plural is n followed by noun, with an "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
