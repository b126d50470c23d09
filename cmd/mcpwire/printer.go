package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ANSI styles, used only on a terminal.
const (
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiReset = "\x1b[0m"
)

// printer writes lines, keeping the first error.
type printer struct {
	w      io.Writer
	colour bool
	err    error
}

// line writes s and a newline.
func (p *printer) line(s string) {
	if p.err == nil {
		_, p.err = fmt.Fprintln(p.w, s)
	}
}

// style wraps s in an ANSI style on a terminal.
func (p *printer) style(code, s string) string {
	if !p.colour || s == "" {
		return s
	}
	return code + s + ansiReset
}

func (p *printer) bold(s string) string  { return p.style(ansiBold, s) }
func (p *printer) red(s string) string   { return p.style(ansiRed, s) }
func (p *printer) green(s string) string { return p.style(ansiGreen, s) }

// table is rows of cells under a head, each row with notes printed
// under it.
type table struct {
	head []string
	rows []*row
}

// row is one table row.
type row struct {
	cells []string
	notes []string
}

// add appends a row.
func (t *table) add(cells ...string) *row {
	r := &row{cells: cells}
	t.rows = append(t.rows, r)
	return r
}

// table writes t with its columns aligned (widths in characters), the
// verdict column coloured, and a blank line before it.
func (p *printer) table(t *table) {
	width := make([]int, len(t.head))
	for _, cells := range append([][]string{t.head}, cellsOf(t.rows)...) {
		for i, c := range cells {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	p.line("")
	p.line(p.bold(strings.TrimRight(pad(t.head, width, nil), " ")))
	for _, r := range t.rows {
		p.line(strings.TrimRight(pad(r.cells, width, p.cellStyle), " "))
		for _, n := range r.notes {
			if strings.HasPrefix(n, "✗") {
				n = p.red(n)
			}
			p.line("    " + n)
		}
	}
}

// cellStyle colours a verdict cell.
func (p *printer) cellStyle(s string) string {
	switch s {
	case "ok":
		return p.green(s)
	case "rejected":
		return p.red(s)
	}
	return s
}

// cellsOf returns the rows' cells.
func cellsOf(rows []*row) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r.cells
	}
	return out
}

// pad joins cells, each padded to its column's width plus two spaces,
// styled after padding so that escapes never count as width.
func pad(cells []string, width []int, style func(string) string) string {
	var b strings.Builder
	for i, c := range cells {
		s := c
		if style != nil {
			s = style(c)
		}
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)+2))
	}
	return b.String()
}

// safe makes text from the server safe to print on a terminal: control
// characters (escape sequences among them), other unprintable runes and
// invalid UTF-8 are written as \x.. or \u.... escapes.
func safe(s string) string {
	clean := true
	for _, r := range s {
		if !printable(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !printable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// printable reports whether r may be printed as it is.
func printable(r rune) bool {
	return r != utf8.RuneError && (r == ' ' || (unicode.IsPrint(r) && !unicode.IsControl(r)))
}
