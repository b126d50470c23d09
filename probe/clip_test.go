package probe

import (
	"strings"
	"testing"
)

// Every constructor quotes client input clipped, so a 10 MiB argument
// never comes back as a 10 MiB error.
func TestConstructorErrorsClipped(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	errs := map[string]func() error{
		"URL parse":  func() error { _, err := URL("http://[" + huge); return err },
		"URL host":   func() error { _, err := URL(huge); return err },
		"URL port":   func() error { _, err := URL("http://h:" + huge); return err },
		"host":       func() error { _, err := Host(huge+".com", 0); return err },
		"IP":         func() error { _, err := Host(huge+":1", 0); return err },
		"label":      func() error { _, err := Host("a."+huge[:100]+".com", 0); return err },
		"command":    func() error { _, err := Command("./" + huge); return err },
		"program":    func() error { _, err := Command("/a/../" + huge + "\n"); return err },
		"parse":      func() error { _, err := Parse(huge); return err },
		"verb":       func() error { _, err := Parse(huge + ":x"); return err },
		"net target": func() error { _, err := Parse("net:Example" + huge); return err },
		"file verb":  func() error { _, err := (Root{dir: "/r"}).File(Verb(huge), "a"); return err },
	}
	for name, f := range errs {
		err := f()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if len(err.Error()) > 400 {
			t.Errorf("%s: %d-byte error %.120q", name, len(err.Error()), err.Error())
		}
	}
}
