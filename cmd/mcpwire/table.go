package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/peer/check"
	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// writeTable writes the report for a person: a header, one table per
// list with each finding under its row, the server's own findings, and
// the verdict. colour is for a terminal.
func writeTable(w io.Writer, rep *report, colour bool) error {
	p := &printer{w: w, colour: colour}
	p.header(rep)
	if f := rep.Failure; f != nil {
		p.serverProblems(rep.Problems)
		p.ending("the review could not run ("+f.Stage+"): ", f)
		p.verdict(rep)
		return p.err
	}
	p.tools(rep.Tools)
	p.items(resourceKind, rep.Resources, rep.Pages)
	p.items(templateKind, rep.ResourceTemplates, rep.Pages)
	p.items(promptKind, rep.Prompts, rep.Pages)
	p.serverProblems(rep.Problems)
	if rep.Ended != nil {
		p.ending("", rep.Ended)
	}
	p.verdict(rep)
	return p.err
}

// header says which server was reviewed and how it was reached.
func (p *printer) header(rep *report) {
	if rep.Server == nil {
		p.line(p.bold("mcpwire check: ") + safe(rep.command))
		return
	}
	name := rep.Server.Name
	if name == "" {
		name = "(no name)"
	}
	p.line(p.bold("mcpwire check: ") + safe(clip.String(name)) + " " + safe(clip.String(rep.Server.Version)) + " (" + safe(rep.command) + ")")
	p.line("  era        " + rep.Era + ", revision " + safe(clip.String(rep.Revision)))
	p.line("  detection  " + safe(rep.Detection.Summary))
	var listed []string
	for _, k := range check.Lists {
		if n, ok := rep.Pages[k.Member]; ok {
			listed = append(listed, fmt.Sprintf("%s (%d page%s)", count(rep.Count(k), k.Noun), n, plural(n)))
		}
	}
	if len(listed) > 0 {
		p.line("  listed     " + strings.Join(listed, ", "))
	}
}

// tools is the tool table.
func (p *printer) tools(tools []*toolReport) {
	if len(tools) == 0 {
		p.line("")
		p.line("no tools listed")
		return
	}
	t := &table{head: []string{"TOOL", "VERDICT", "CALL"}}
	for _, tr := range tools {
		r := t.add(display(tr.Name), verdictWord(tr.Admitted), callWord(tr))
		if tr.Called && tr.Reason != "" && tr.Outcome != outcomeSuccess {
			r.notes = append(r.notes, "answer: "+safe(tr.Reason))
		}
		for _, pr := range tr.Problems {
			r.notes = append(r.notes, problemLine(pr))
		}
		for _, h := range tr.Headers {
			r.notes = append(r.notes, fmt.Sprintf("header %s at %s: %s", safe(clip.Quote(h.Header)), safe(h.Path), h.Verdict))
		}
	}
	p.table(t)
}

// items is the table of resources, templates or prompts (with a URI
// column but for prompts). A list the server does not offer is left out.
func (p *printer) items(k check.List, items []*itemReport, pages map[string]int) {
	if _, listed := pages[k.Member]; !listed {
		return
	}
	if len(items) == 0 {
		p.line("")
		p.line("no " + k.Noun + "s listed")
		return
	}
	title, located := strings.ToUpper(k.Noun), k != promptKind
	t := &table{head: []string{title, "VERDICT"}}
	if located {
		t.head = []string{title, "NAME", "VERDICT"}
	}
	for _, it := range items {
		cells := []string{display(it.Name), verdictWord(it.Admitted)}
		if located {
			cells = []string{display(it.URI), display(it.Name), verdictWord(it.Admitted)}
		}
		r := t.add(cells...)
		for _, pr := range it.Problems {
			r.notes = append(r.notes, problemLine(pr))
		}
	}
	p.table(t)
}

// serverProblems lists what is wrong with the server as a whole.
func (p *printer) serverProblems(problems []review.Problem) {
	if len(problems) == 0 {
		return
	}
	p.line("")
	p.line(p.bold("SERVER"))
	for _, pr := range problems {
		p.line("  " + p.red(problemLine(pr)))
	}
}

// ending says why the review could not run, or how the server ended
// during it, after title.
func (p *printer) ending(title string, f *check.Failure) {
	p.line("")
	p.line(p.red(title) + safe(f.Error))
	if f.Exit != "" {
		p.line("  the server: " + safe(f.Exit))
	}
	if len(f.Stderr) > 0 {
		p.line(fmt.Sprintf("  its stderr ended with (last %d line%s):", len(f.Stderr), plural(len(f.Stderr))))
		for _, l := range f.Stderr {
			p.line("    | " + safe(strings.ReplaceAll(l, "\t", "    ")))
		}
	}
}

// verdict is the last line.
func (p *printer) verdict(rep *report) {
	p.line("")
	word := rep.Verdict
	switch rep.Exit {
	case exitOK:
		word = p.green(word)
	default:
		word = p.red(word)
	}
	var parts []string
	for _, k := range check.Lists {
		if _, ok := rep.Pages[k.Member]; !ok || rep.Failure != nil {
			continue
		}
		switch n, refused := rep.Count(k), rep.Refused(k); {
		case rep.Exit == exitOK && k == toolKind:
			parts = append(parts, fmt.Sprintf("%s (%d called)", count(n, k.Noun), rep.Called()))
		case rep.Exit == exitOK:
			parts = append(parts, count(n, k.Noun))
		case refused > 0:
			parts = append(parts, fmt.Sprintf("%d of %s", refused, count(n, k.Noun)))
		}
	}
	if n := len(rep.Problems); n > 0 {
		parts = append(parts, count(n, "server problem"))
	}
	p.line(p.bold("verdict: ") + word + prefixed(": ", strings.Join(parts, ", ")) + fmt.Sprintf(" (exit %d)", rep.Exit))
}

// problemLine is one finding on one line.
func problemLine(pr review.Problem) string {
	s := "✗ " + pr.Gate + " " + pr.Rule
	if pr.Path != "" {
		s += " " + safe(pr.Path)
	}
	return s + ": " + safe(pr.Message)
}

// verdictWord is a row's verdict.
func verdictWord(admitted bool) string {
	if admitted {
		return "ok"
	}
	return "rejected"
}

// callWord says what calling a tool gave, or why it was not called.
func callWord(t *toolReport) string {
	if !t.Called {
		return "not called: " + t.Reason
	}
	if t.Outcome == outcomeIsError {
		return "isError"
	}
	return t.Outcome
}

// count is "3 tools", "1 tool".
func count(n int, noun string) string { return fmt.Sprintf("%d %s%s", n, noun, plural(n)) }

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// prefixed is prefix+s, or "" when s is.
func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// display is a name from the server, clipped and safe for a terminal;
// "(none)" when empty.
func display(s string) string {
	if s == "" {
		return "(none)"
	}
	return safe(clip.String(s))
}
