package probe

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// Verb is the kind of access a pattern asks for.
type Verb string

// The verbs of the pattern grammar.
const (
	// Read reads a file or directory under the server's root.
	Read Verb = "read"
	// Write creates or changes a file or directory under the server's root.
	Write Verb = "write"
	// Delete removes a file or directory under the server's root.
	Delete Verb = "delete"
	// Exec runs a program.
	Exec Verb = "exec"
	// Net opens a network connection to a host.
	Net Verb = "net"
)

// IsFile reports whether the verb's target is a path under the root.
func (v Verb) IsFile() bool { return v == Read || v == Write || v == Delete }

// Pattern is one canonical access pattern, "<verb>:<target>".
//
// Build patterns with [Root.File], [Host], [URL], [Command] or [Parse]; they
// return canonical patterns or an error. A Pattern written as a literal is
// checked when the probe reply is built, and a non-canonical one makes the
// reply an isError result.
type Pattern struct {
	Verb   Verb
	Target string
}

// String returns the pattern's wire form, "<verb>:<target>".
func (p Pattern) String() string { return string(p.Verb) + ":" + p.Target }

// Check reports whether the pattern is canonical: a known verb and a target
// in its verb's canonical form.
func (p Pattern) Check() error {
	switch {
	case p.Verb.IsFile():
		return checkPath(p.Target)
	case p.Verb == Exec:
		return checkProgram(p.Target)
	case p.Verb == Net:
		return checkHost(p.Target)
	}
	return fmt.Errorf("pattern %s: unknown verb %s; use one of read, write, delete, exec, net", clip.Quote(p.String()), clip.Quote(string(p.Verb)))
}

// Parse reads a pattern in wire form and checks that it is canonical. It
// does not rewrite anything: "write:./a.txt" is an error, not "write:a.txt",
// because a host compares patterns as text.
func Parse(s string) (Pattern, error) {
	verb, target, ok := strings.Cut(s, ":")
	if !ok {
		return Pattern{}, fmt.Errorf("pattern %s has no colon; the form is <verb>:<target>, such as \"write:notes/todo.txt\"", clip.Quote(s))
	}
	p := Pattern{Verb: Verb(verb), Target: target}
	if err := p.Check(); err != nil {
		return Pattern{}, err
	}
	return p, nil
}

// MustParse is Parse that panics on error, for patterns written in code.
func MustParse(s string) Pattern {
	p, err := Parse(s)
	if err != nil {
		panic("probe: " + err.Error())
	}
	return p
}
