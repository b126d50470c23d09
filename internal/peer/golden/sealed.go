package golden

import (
	"fmt"
	"regexp"
	"strings"
)

// sealedValue finds a literal nextCursor or requestState in a server line,
// white space allowed around the colon: group 1 is the key, group 2 the
// value. A value starting with "$" is already a placeholder, and the empty
// cursor "" is a real value that replays as it is.
var sealedValue = regexp.MustCompile(`"(nextCursor|requestState)"\s*:\s*"([^"$\\][^"\\]*)"`)

// NameSealed returns a copy of tr in which every literal nextCursor and
// requestState of a server line is named by a placeholder, as Rewrite
// names them ($CURSOR_<step>_<line>, $STATE_<step>_<line>), and the same
// value quoted in a later client line ("cursor":"…", "requestState":"…")
// by the same placeholder. A session recorded from a live server then
// replays against a process whose keys differ: the placeholder binds to
// the value the server hands out at that position, and the client sends
// it back. A value the server hands out twice is named after its latest
// position.
func NameSealed(tr *Transcript) *Transcript {
	out := *tr
	out.Steps = make([]Step, len(tr.Steps))
	type named struct{ value, name string }
	var names []named
	for i, st := range tr.Steps {
		for k := len(names) - 1; k >= 0; k-- { // the latest naming first
			n := names[k]
			st.Client = strings.ReplaceAll(st.Client, `"`+n.value+`"`, `"`+n.name+`"`)
		}
		exp := make([]string, len(st.Expected))
		for j, line := range st.Expected {
			var b strings.Builder
			last := 0
			for _, m := range sealedValue.FindAllStringSubmatchIndex(line, -1) {
				kind := "CURSOR"
				if line[m[2]:m[3]] == "requestState" {
					kind = "STATE"
				}
				name := fmt.Sprintf("$%s_%d_%d", kind, i+1, j+1)
				names = append(names, named{line[m[4]:m[5]], name})
				b.WriteString(line[last:m[4]] + name)
				last = m[5]
			}
			exp[j] = b.String() + line[last:]
		}
		st.Expected = exp
		out.Steps[i] = st
	}
	return &out
}
