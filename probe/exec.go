package probe

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// Command returns the pattern "exec:<program>" for running a program. A
// bare name ("git", looked up in PATH) is kept as given; a path must be
// absolute and is cleaned ("/usr/bin/../bin/git" gives "exec:/usr/bin/git").
// A relative path such as "./build.sh" is refused: its meaning depends on a
// working directory the host cannot see.
func Command(program string) (Pattern, error) {
	if program == "" {
		return Pattern{}, errors.New("program is empty; give a name such as \"git\" or an absolute path")
	}
	t := program
	if strings.ContainsRune(program, '/') || strings.ContainsRune(program, filepath.Separator) {
		if !filepath.IsAbs(program) {
			return Pattern{}, fmt.Errorf("program %s is a relative path; give a name looked up in PATH or an absolute path", clip.Quote(program))
		}
		t = filepath.ToSlash(filepath.Clean(program))
	}
	p := Pattern{Verb: Exec, Target: t}
	if err := p.Check(); err != nil {
		return Pattern{}, err
	}
	return p, nil
}

// checkProgram reports whether t is a canonical exec target.
func checkProgram(t string) error {
	switch {
	case t == "" || t == "." || t == "..":
		return fmt.Errorf("program %s is not a program name", clip.Quote(t))
	case hasControl(t):
		return fmt.Errorf("program %s contains a control character", clip.Quote(t))
	case !strings.Contains(t, "/"):
		return nil
	}
	native := filepath.FromSlash(t)
	if !filepath.IsAbs(native) {
		return fmt.Errorf("program %s is a relative path; give a name looked up in PATH or an absolute path", clip.Quote(t))
	}
	if c := filepath.ToSlash(filepath.Clean(native)); c != t {
		return fmt.Errorf("program %s is not clean; write it as %s", clip.Quote(t), clip.Quote(c))
	}
	return nil
}
