package uritemplate

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// manyVars returns an expression of n variables v0, v1, ….
func manyVars(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "v" + strconv.Itoa(i)
	}
	return "{" + strings.Join(names, ",") + "}"
}

func TestParse(t *testing.T) {
	tests := []struct {
		tmpl string
		vars []string
	}{
		{"test://template/{id}/data", []string{"id"}},
		{"file:///{+path}", []string{"path"}},
		{"test://static", nil},
		{"{var}", []string{"var"}},
		{"{+a}{#b}{.c}{/d}{;e}{?f}{&g}", []string{"a", "b", "c", "d", "e", "f", "g"}},
		{"{x,y,z}", []string{"x", "y", "z"}},
		{"{var:3}{list*}{max:9999}", []string{"var", "list", "max"}},
		{"{a.b}{a_1.B2.c}{%41b}", []string{"a.b", "a_1.B2.c", "%41b"}},
		{"http://example.com/~user/é/{x}", []string{"x"}},
		{"a%2Fb!$&()*+,;=:@[]{x}", []string{"x"}},
		{"{/list*,path:4}", []string{"list", "path"}},
		{"x" + manyVars(MaxVars), nil},
		{strings.Repeat("a", MaxTemplateLength), nil},
	}
	for _, tt := range tests {
		tp, err := Parse(tt.tmpl)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.tmpl, err)
			continue
		}
		if tp.String() != tt.tmpl {
			t.Errorf("Parse(%q).String() = %q", tt.tmpl, tp.String())
		}
		if got := tp.Vars(); tt.vars != nil && !slices.Equal(got, tt.vars) {
			t.Errorf("Parse(%q).Vars() = %q, want %q", tt.tmpl, got, tt.vars)
		}
	}
}

func TestVarsIsACopy(t *testing.T) {
	tp, err := Parse("{a}{b}")
	if err != nil {
		t.Fatal(err)
	}
	tp.Vars()[0] = "changed"
	if got := tp.Vars(); got[0] != "a" {
		t.Errorf("Vars() after changing a returned slice = %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	long := strings.Repeat("a", MaxTemplateLength+1)
	tests := []struct {
		tmpl string
		want string
	}{
		{"", `uri template "": empty template`},
		{long, `uri template "` + strings.Repeat("a", 64) + `…" (1025 bytes): longer than 1024 bytes`},
		{"a{b", `uri template "a{b": unclosed expression at byte 1`},
		{"test://template/{id/data", `uri template "test://template/{id/data": unclosed expression at byte 16`},
		{"a}b", `uri template "a}b": unexpected "}" at byte 1`},
		{"{a}}", `uri template "{a}}": unexpected "}" at byte 3`},
		{"{}", `uri template "{}": empty expression at byte 0`},
		{"{=x}", `uri template "{=x}": reserved operator "=" at byte 1`},
		{"{,x}", `uri template "{,x}": reserved operator "," at byte 1`},
		{"{!x}", `uri template "{!x}": reserved operator "!" at byte 1`},
		{"{@x}", `uri template "{@x}": reserved operator "@" at byte 1`},
		{"{|x}", `uri template "{|x}": reserved operator "|" at byte 1`},
		{"{+}", `uri template "{+}": empty variable name at byte 2`},
		{"{a,}", `uri template "{a,}": empty variable name at byte 3`},
		{"{a,,b}", `uri template "{a,,b}": empty variable name at byte 3`},
		{"{ a}", `uri template "{ a}": invalid character " " in expression at byte 1`},
		{"{a b}", `uri template "{a b}": invalid character " " in expression at byte 2`},
		{"{a-b}", `uri template "{a-b}": invalid character "-" in expression at byte 2`},
		{"{a{b}", `uri template "{a{b}": invalid character "{" in expression at byte 2`},
		{"{é}", `uri template "{é}": invalid character "é" in expression at byte 1`},
		{"{a\xff}", `uri template "{a\xff}": invalid UTF-8 at byte 2`},
		{"{.a.}", `uri template "{.a.}": invalid variable name "a." at byte 2`},
		{"{..a}", `uri template "{..a}": invalid variable name ".a" at byte 2`},
		{"{a..b}", `uri template "{a..b}": invalid variable name "a..b" at byte 1`},
		{"{a%2}", `uri template "{a%2}": invalid percent-encoding at byte 2`},
		{"{a%zz}", `uri template "{a%zz}": invalid percent-encoding at byte 2`},
		{"{a:}", `uri template "{a:}": invalid prefix length "" (want 1 to 9999) at byte 3`},
		{"{a:0}", `uri template "{a:0}": invalid prefix length "0" (want 1 to 9999) at byte 3`},
		{"{a:01}", `uri template "{a:01}": invalid prefix length "01" (want 1 to 9999) at byte 3`},
		{"{a:10000}", `uri template "{a:10000}": invalid prefix length "10000" (want 1 to 9999) at byte 3`},
		{"{a:3*}", `uri template "{a:3*}": invalid character "*" in expression at byte 4`},
		{"{a*:3}", `uri template "{a*:3}": invalid character ":" in expression at byte 3`},
		{"{a**}", `uri template "{a**}": invalid character "*" in expression at byte 3`},
		{"{a}/{a}", `uri template "{a}/{a}": repeated variable "a" at byte 5`},
		{"{a,a}", `uri template "{a,a}": repeated variable "a" at byte 3`},
		{"x" + manyVars(MaxVars+1), `uri template "x{v0,v1,v2,v3,v4,v5,v6,v7,v8,v9,v10,v11,v12,v13,v14,v15,v16}": more than 16 variables at byte 56`},
		{"a b", `uri template "a b": invalid character " " at byte 1`},
		{"a<b", `uri template "a<b": invalid character "<" at byte 1`},
		{"a'b", `uri template "a'b": invalid character "'" at byte 1`},
		{"a|b", `uri template "a|b": invalid character "|" at byte 1`},
		{"a\x00b", `uri template "a\x00b": invalid character "\x00" at byte 1`},
		{"a%zz", `uri template "a%zz": invalid percent-encoding at byte 1`},
		{"a%4", `uri template "a%4": invalid percent-encoding at byte 1`},
		{"a%", `uri template "a%": invalid percent-encoding at byte 1`},
		{"a\xffb", `uri template "a\xffb": invalid UTF-8 at byte 1`},
		{"a\u0085b", `uri template "a\u0085b": invalid character "\u0085" at byte 1`},
		{"a\ufdd0b", `uri template "a\ufdd0b": invalid character "\ufdd0" at byte 1`},
	}
	for _, tt := range tests {
		tp, err := Parse(tt.tmpl)
		if err == nil {
			t.Errorf("Parse(%q) = %q, want error %s", tt.tmpl, tp, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(%q) error:\n got %s\nwant %s", tt.tmpl, err, tt.want)
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Template != tt.tmpl {
			t.Errorf("Parse(%q) error %T is not a *ParseError of the template", tt.tmpl, err)
		}
	}
}
