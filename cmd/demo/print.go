package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxShown is how many bytes of a wire line are printed; the rest is cut
// and counted ("… (N more bytes)"). Steps whose lines are the point show
// up to wideShown (see session.wide).
const (
	maxShown  = 200
	wideShown = 480
)

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

// printer writes the demo's output: headings, wire lines with their
// direction, remarks and check failures. It prints nothing that varies
// from run to run (no times, no process ids). It is not safe for
// concurrent use.
type printer struct {
	w     io.Writer
	color bool
}

// newPrinter returns a printer writing to w, with ANSI colour when color is
// true.
func newPrinter(w io.Writer, color bool) *printer {
	return &printer{w: w, color: color}
}

// paint wraps s in style when colour is on.
func (p *printer) paint(style, s string) string {
	if !p.color {
		return s
	}
	return style + s + styleReset
}

// title prints the demo's first line.
func (p *printer) title(format string, args ...any) {
	fmt.Fprintln(p.w, p.paint(styleBold, fmt.Sprintf(format, args...)))
}

// era prints the heading of a group of steps, after a blank line.
func (p *printer) era(caption string) {
	fmt.Fprintf(p.w, "\n%s\n", p.paint(styleBold, caption))
}

// step prints a numbered step heading.
func (p *printer) step(n int, caption string) {
	fmt.Fprintln(p.w, p.paint(styleBold, fmt.Sprintf("%d. %s", n, caption)))
}

// client prints a line the client wrote to the server's stdin, as shown.
func (p *printer) client(shown string) {
	fmt.Fprintf(p.w, "  %s %s\n", p.paint(styleCyan, "→"), shown)
}

// server prints a line read from the server's stdout, as shown; error
// responses are highlighted.
func (p *printer) server(shown string, isError bool) {
	style := styleGreen
	if isError {
		style = styleYellow
	}
	fmt.Fprintf(p.w, "  %s %s\n", p.paint(style, "←"), p.paint(style, shown))
}

// clientEvent prints something the client did that is not a line.
func (p *printer) clientEvent(what string) {
	fmt.Fprintf(p.w, "  %s %s\n", p.paint(styleCyan, "→"), p.paint(styleDim, "("+what+")"))
}

// serverEvent prints something the server did that is not a line.
func (p *printer) serverEvent(what string) {
	fmt.Fprintf(p.w, "  %s %s\n", p.paint(styleGreen, "←"), p.paint(styleDim, "("+what+")"))
}

// note prints a remark, dimmed.
func (p *printer) note(format string, args ...any) {
	fmt.Fprintf(p.w, "    %s\n", p.paint(styleDim, fmt.Sprintf(format, args...)))
}

// source prints Go source from file, indented and dimmed, under a step's
// heading.
func (p *printer) source(file, src string) {
	fmt.Fprintf(p.w, "  %s\n", p.paint(styleDim, "Go, "+file+":"))
	for _, line := range strings.Split(src, "\n") {
		if line == "" {
			fmt.Fprintln(p.w)
			continue
		}
		fmt.Fprintf(p.w, "    %s\n", p.paint(styleDim, strings.ReplaceAll(line, "\t", "    ")))
	}
}

// plain prints a line as is.
func (p *printer) plain(line string) {
	fmt.Fprintln(p.w, line)
}

// ok prints a result that held.
func (p *printer) ok(format string, args ...any) {
	fmt.Fprintln(p.w, p.paint(styleGreen, "✓ "+fmt.Sprintf(format, args...)))
}

// fail prints a check that did not hold.
func (p *printer) fail(format string, args ...any) {
	fmt.Fprintln(p.w, p.paint(styleRed, "FAIL "+fmt.Sprintf(format, args...)))
}

// stderr prints the last limit lines of the server's stderr, dimmed and
// clipped; the demo shows it only when something went wrong.
func (p *printer) stderr(text []byte, limit int) {
	s := strings.TrimRight(string(text), "\n")
	if s == "" {
		p.note("(the server wrote nothing to stderr)")
		return
	}
	lines := strings.Split(s, "\n")
	p.note("server stderr, last %s of %d:", plural(min(limit, len(lines)), "line"), len(lines))
	for _, l := range lines[max(0, len(lines)-limit):] {
		p.note("%s", clip([]byte(l), maxShown))
	}
}

// clip renders a wire line for printing: the bytes as sent, cut to at most
// n bytes (at a character boundary) with a count of the bytes cut, "…
// (N more bytes)". Control characters are replaced (see sanitize).
func clip(line []byte, n int) string {
	if len(line) <= n {
		return sanitize(string(line))
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(line[n]) {
		n--
	}
	return sanitize(string(line[:n])) + "… (" + plural(len(line)-n, "more byte") + ")"
}

// sanitize replaces control characters, so that raw text from a broken
// server cannot break the one-line-per-message layout or inject terminal
// escapes. Compact JSON never has any: its control characters are escaped.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '·'
		}
		return r
	}, s)
}

// plural is n followed by noun, with an "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
