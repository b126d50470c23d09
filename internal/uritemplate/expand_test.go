package uritemplate

import (
	"errors"
	"maps"
	"testing"
)

// rfcVars are the variables of RFC 6570 section 3.2, with list as the
// comma-joined value of an exploded variable (see withList for the other
// separators). keys (an associative array) and undef are left out.
var rfcVars = v{
	"count": "one,two,three",
	"dom":   "example.com",
	"dub":   "me/too",
	"hello": "Hello World!",
	"half":  "50%",
	"var":   "value",
	"who":   "fred",
	"base":  "http://example.com/home/",
	"path":  "/foo/bar",
	"list":  "red,green,blue",
	"v":     "6",
	"x":     "1024",
	"y":     "768",
	"empty": "",
}

// withList returns rfcVars with list and count joined by sep, as {/list*}
// and {.list*} take them.
func withList(sep string) v {
	m := maps.Clone(rfcVars)
	m["list"] = "red" + sep + "green" + sep + "blue"
	m["count"] = "one" + sep + "two" + sep + "three"
	return m
}

func TestExpandRFC6570(t *testing.T) {
	slash, dot := withList("/"), withList(".")
	tests := []struct {
		tmpl, want string
		vals       v // rfcVars if nil
	}{
		// 3.2.1 Variable Expansion (exploded lists).
		{"{count*}", "one,two,three", nil},
		{"{/count*}", "/one/two/three", slash},
		{"{;count*}", ";count=one;count=two;count=three", nil},
		{"{?count*}", "?count=one&count=two&count=three", nil},
		{"{&count*}", "&count=one&count=two&count=three", nil},
		// 3.2.2 Simple String Expansion (level 1 and 3, and 4's prefix).
		{"{var}", "value", nil},
		{"{hello}", "Hello%20World%21", nil},
		{"{half}", "50%25", nil},
		{"O{empty}X", "OX", nil},
		{"O{undef}X", "OX", nil},
		{"{x,y}", "1024,768", nil},
		{"{x,hello,y}", "1024,Hello%20World%21,768", nil},
		{"?{x,empty}", "?1024,", nil},
		{"?{x,undef}", "?1024", nil},
		{"?{undef,y}", "?768", nil},
		{"{var:3}", "val", nil},
		{"{var:30}", "value", nil},
		{"{list*}", "red,green,blue", nil},
		// 3.2.3 Reserved Expansion (level 2).
		{"{+var}", "value", nil},
		{"{+hello}", "Hello%20World!", nil},
		{"{+half}", "50%25", nil},
		{"{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex", nil},
		{"{+base}index", "http://example.com/home/index", nil},
		{"O{+empty}X", "OX", nil},
		{"O{+undef}X", "OX", nil},
		{"{+path}/here", "/foo/bar/here", nil},
		{"here?ref={+path}", "here?ref=/foo/bar", nil},
		{"up{+path}{var}/here", "up/foo/barvalue/here", nil},
		{"{+x,hello,y}", "1024,Hello%20World!,768", nil},
		{"{+path,x}/here", "/foo/bar,1024/here", nil},
		{"{+path:6}/here", "/foo/b/here", nil},
		{"{+list*}", "red,green,blue", nil},
		// 3.2.4 Fragment Expansion.
		{"{#var}", "#value", nil},
		{"{#hello}", "#Hello%20World!", nil},
		{"{#half}", "#50%25", nil},
		{"foo{#empty}", "foo#", nil},
		{"foo{#undef}", "foo", nil},
		{"{#x,hello,y}", "#1024,Hello%20World!,768", nil},
		{"{#path,x}/here", "#/foo/bar,1024/here", nil},
		{"{#path:6}/here", "#/foo/b/here", nil},
		{"{#list*}", "#red,green,blue", nil},
		// 3.2.5 Label Expansion with Dot-Prefix.
		{"{.who}", ".fred", nil},
		{"{.half,who}", ".50%25.fred", nil},
		{"www{.dom*}", "www.example.com", dot},
		{"X{.var}", "X.value", nil},
		{"X{.empty}", "X.", nil},
		{"X{.undef}", "X", nil},
		{"X{.var:3}", "X.val", nil},
		{"X{.list*}", "X.red.green.blue", dot},
		// 3.2.6 Path Segment Expansion.
		{"{/who}", "/fred", nil},
		{"{/half,who}", "/50%25/fred", nil},
		{"{/who,dub}", "/fred/me%2Ftoo", nil},
		{"{/var}", "/value", nil},
		{"{/var,empty}", "/value/", nil},
		{"{/var,undef}", "/value", nil},
		{"{/var,x}/here", "/value/1024/here", nil},
		{"{/list*}", "/red/green/blue", slash},
		{"{/list*,path:4}", "/red/green/blue/%2Ffoo", slash},
		// 3.2.7 Path-Style Parameter Expansion.
		{"{;who}", ";who=fred", nil},
		{"{;half}", ";half=50%25", nil},
		{"{;empty}", ";empty", nil},
		{"{;v,empty,who}", ";v=6;empty;who=fred", nil},
		{"{;v,bar,who}", ";v=6;who=fred", nil},
		{"{;x,y}", ";x=1024;y=768", nil},
		{"{;x,y,empty}", ";x=1024;y=768;empty", nil},
		{"{;x,y,undef}", ";x=1024;y=768", nil},
		{"{;hello:5}", ";hello=Hello", nil},
		{"{;list*}", ";list=red;list=green;list=blue", nil},
		// 3.2.8 Form-Style Query Expansion.
		{"{?who}", "?who=fred", nil},
		{"{?half}", "?half=50%25", nil},
		{"{?x,y}", "?x=1024&y=768", nil},
		{"{?x,y,empty}", "?x=1024&y=768&empty=", nil},
		{"{?x,y,undef}", "?x=1024&y=768", nil},
		{"{?var:3}", "?var=val", nil},
		{"{?list*}", "?list=red&list=green&list=blue", nil},
		// 3.2.9 Form-Style Query Continuation.
		{"{&who}", "&who=fred", nil},
		{"{&half}", "&half=50%25", nil},
		{"?fixed=yes{&x}", "?fixed=yes&x=1024", nil},
		{"{&x,y,empty}", "&x=1024&y=768&empty=", nil},
		{"{&var:3}", "&var=val", nil},
		{"{&list*}", "&list=red&list=green&list=blue", nil},
	}
	for _, tt := range tests {
		checkExpand(t, tt.tmpl, tt.vals, tt.want)
	}
}

// TestExpand covers what RFC 6570's examples do not: encoding of
// non-ASCII values, prefixes on them, empty list items, and where Expand
// encodes more than RFC 6570 so that Match gives the value back.
func TestExpand(t *testing.T) {
	tests := []struct {
		tmpl string
		vals v
		want string
	}{
		{"test://template/{id}/data", v{"id": "a/b c"}, "test://template/a%2Fb%20c/data"},
		{"test://template/{id}/data", v{"id": "café"}, "test://template/caf%C3%A9/data"},
		{"test://template/{id}/data", v{"id": "\x00"}, "test://template/%00/data"},
		{"test://template/{id}/data", v{}, "test://template//data"},
		{"{x:2}", v{"x": "éèà"}, "%C3%A9%C3%A8"},
		{"{x:2}", v{"x": "é"}, "%C3%A9"},
		{"{+x:3}", v{"x": "a/bc"}, "a/b"},
		{"file:///{+path}", v{"path": "a/b c/ü"}, "file:///a/b%20c/%C3%BC"},
		{"file:///{+path}", v{"path": "a?b#c"}, "file:///a%3Fb%23c"},
		{"file:///{+path}", v{"path": "100%41"}, "file:///100%2541"},
		{"x?q={+v}", v{"v": "a?b#c"}, "x?q=a?b%23c"},
		{"x{#v}", v{"v": "a?b#c"}, "x#a?b%23c"},
		{"{/x*}", v{"x": "a//b"}, "/a//b"},
		{"{/x*}", v{"x": ""}, "/"},
		{"{?x*}", v{"x": ""}, "?x="},
		{"{?x*}", v{"x": "a,,b"}, "?x=a&x=&x=b"},
		{"{;x*}", v{"x": ",a"}, ";x;x=a"},
		{"{?q}", v{"q": "a+b&c=d"}, "?q=a%2Bb%26c%3Dd"},
		{"{?x}", v{"y": "unused"}, ""},
		{"test://static", nil, "test://static"},
	}
	for _, tt := range tests {
		checkExpand(t, tt.tmpl, tt.vals, tt.want)
	}
}

// checkExpand checks that tmpl expands vals (rfcVars if nil) to want.
func checkExpand(t *testing.T, tmpl string, vals v, want string) {
	t.Helper()
	tp, err := Parse(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	if vals == nil {
		vals = rfcVars
	}
	got, err := tp.Expand(vals)
	if err != nil || got != want {
		t.Errorf("%s expanded to %q, %v; want %q", tmpl, got, err, want)
	}
}

func TestExpandInvalidUTF8(t *testing.T) {
	tp, err := Parse("test://template/{id}/data")
	if err != nil {
		t.Fatal(err)
	}
	got, err := tp.Expand(v{"id": "a\xffb"})
	want := `uri template "test://template/{id}/data": value of "id" is not valid UTF-8`
	if err == nil || err.Error() != want || !errors.Is(err, ErrInvalidValue) {
		t.Errorf("Expand of invalid UTF-8 = %q, %v; want error %s wrapping ErrInvalidValue", got, err, want)
	}
}

// TestExpandMatch checks that Match gives back what Expand was given, for
// values chosen to be hard: reserved and encoded characters, dots, NUL,
// non-ASCII, empty named values.
func TestExpandMatch(t *testing.T) {
	tests := []struct {
		tmpl string
		vals v
	}{
		{"test://template/{id}/data", v{"id": "a/../b?#%2F"}},
		{"test://template/{id}/data", v{"id": "\x00é😀"}},
		{"file:///{+path}", v{"path": "a/b?c#d%41e f"}},
		{"file:///{+path}{?q,r}", v{"path": "a?b", "q": "", "r": "x&y=z"}},
		{"x{/seg*}{.ext}", v{"seg": "a/b%2Fc/.. .", "ext": "gz"}}, // ext without dots: {.ext} after dots is ambiguous
		{"x{;p,list*}", v{"p": "", "list": "a,,b,"}},
		{"x{#f}", v{"f": "a?b#c,d"}},
		{"{x:3}/{+y:2}", v{"x": "ééé", "y": "/?"}},
	}
	for _, tt := range tests {
		tp, err := Parse(tt.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		uri, err := tp.Expand(tt.vals)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := tp.Match(uri)
		if !ok || !maps.Equal(got, tt.vals) {
			t.Errorf("%s: Expand(%q) = %q, which matched %q, %v", tt.tmpl, tt.vals, uri, got, ok)
		}
	}
}
