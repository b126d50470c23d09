package golden

import (
	"os"
	"strings"
	"testing"
)

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// NameSealed names each cursor and state by position, and the client lines
// that send one back; "" and placeholders stay, the latest naming wins.
func TestNameSealed(t *testing.T) {
	tr := &Transcript{Steps: []Step{
		{Client: `{"id":1}`, Expected: []string{`{"id":1,"result":{"nextCursor" : "c1"}}`, `{"nextCursor":""}`}},
		{Client: `{"id":2,"params":{"cursor":"c1"}}`, Expected: []string{`{"result":{"resultType":"input_required","requestState":"s"},"nextCursor":"$KEEP"}`}},
		{Client: `{"id":3,"params":{"requestState":"s","x":"c1x"}}`, Expected: []string{`{"nextCursor":"c1"}`}},
		{Client: `{"cursor":"c1"}`},
	}}
	got := NameSealed(tr)
	want := []string{
		`{"id":1}`, `{"id":1,"result":{"nextCursor" : "$CURSOR_1_1"}}`, `{"nextCursor":""}`,
		`{"id":2,"params":{"cursor":"$CURSOR_1_1"}}`, `{"result":{"resultType":"input_required","requestState":"$STATE_2_1"},"nextCursor":"$KEEP"}`,
		`{"id":3,"params":{"requestState":"$STATE_2_1","x":"c1x"}}`, `{"nextCursor":"$CURSOR_3_1"}`,
		`{"cursor":"$CURSOR_3_1"}`,
	}
	var lines []string
	for _, st := range got.Steps {
		lines = append(append(lines, st.Client), st.Expected...)
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("NameSealed:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if tr.Steps[1].Client != `{"id":2,"params":{"cursor":"c1"}}` {
		t.Error("NameSealed changed its argument")
	}
}

// Load keeps the session's "#" lines with the client line after them, and
// the ones after the last step, so Format gives the file back.
func TestNotesRoundTrip(t *testing.T) {
	text := "# prose\n-- session --\n# first\n> {}\n< {}\n# not JSON below\n> hi\n# the end\n"
	tr := transcript(t, text)
	if got := tr.Format(); got != text {
		t.Errorf("Format after Load:\n%s\nwant\n%s", got, text)
	}
}
