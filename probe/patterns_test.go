package probe

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPatternsMeta(t *testing.T) {
	w := func(s string) Pattern { return MustParse(s) }
	tests := []struct {
		name       string
		in         Patterns
		args, alwa []string
	}{
		{"empty lists are arrays", Patterns{}, []string{}, []string{}},
		{"sorted by text", Patterns{Args: []Pattern{w("write:b"), w("read:z"), w("write:a"), w("delete:q")}},
			[]string{"delete:q", "read:z", "write:a", "write:b"}, []string{}},
		{"duplicates removed", Patterns{Args: []Pattern{w("write:a"), w("write:a"), w("read:a")}, Always: []Pattern{w("net:x.org"), w("net:x.org")}},
			[]string{"read:a", "write:a"}, []string{"net:x.org"}},
		{"always not repeated in args", Patterns{Args: []Pattern{w("write:a"), w("net:x.org:443")}, Always: []Pattern{w("net:x.org:443")}},
			[]string{"write:a"}, []string{"net:x.org:443"}},
		{"verbs order as text", Patterns{Always: []Pattern{w("write:a"), w("net:h"), w("exec:git"), w("delete:a"), w("read:a")}},
			[]string{}, []string{"delete:a", "exec:git", "net:h", "read:a", "write:a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.Meta()
			want := map[string]any{PatternsKey: tt.args, AlwaysKey: tt.alwa}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Meta() (-want +got):\n%s", d)
			}
		})
	}
}

func TestCanonicalDoesNotChangeInput(t *testing.T) {
	in := []Pattern{MustParse("write:b"), MustParse("write:a"), MustParse("write:b")}
	p := Patterns{Args: in}
	p.Canonical()
	if in[0].Target != "b" || in[1].Target != "a" || in[2].Target != "b" {
		t.Errorf("Canonical reordered its input: %v", in)
	}
}

func TestSameSetSameReply(t *testing.T) {
	a := Patterns{Args: []Pattern{MustParse("read:x"), MustParse("write:y"), MustParse("net:h:1")}}.Meta()
	b := Patterns{Args: []Pattern{MustParse("net:h:1"), MustParse("read:x"), MustParse("write:y"), MustParse("read:x")}}.Meta()
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("two orders of one set gave different replies:\n%s", d)
	}
}

func TestPatternsCheck(t *testing.T) {
	good := Patterns{Args: []Pattern{MustParse("write:a")}, Always: []Pattern{MustParse("exec:git")}}
	if err := good.Check(); err != nil {
		t.Errorf("Check(good) = %v", err)
	}
	for _, bad := range []Patterns{
		{Args: []Pattern{{Verb: Write, Target: "../escape"}}},
		{Always: []Pattern{{Verb: "copy", Target: "a"}}},
		{Args: []Pattern{{Verb: Net, Target: "Example.com"}}},
	} {
		if err := bad.Check(); err == nil {
			t.Errorf("Check(%v) = nil, want an error", bad)
		}
	}
	err := Patterns{Args: []Pattern{{Verb: Write, Target: "../escape"}}}.Check()
	if err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("escape error = %v", err)
	}
}
