package uritemplate

import (
	"maps"
	"strings"
	"testing"
	"time"
)

// v is shorthand for a values map in the tables.
type v = map[string]string

// matchTests are Match's cases; a nil want means no match. FuzzMatch
// starts from them.
var matchTests = []struct {
	tmpl, uri string
	want      v
}{
	// One segment between literals.
	{"test://template/{id}/data", "test://template/123/data", v{"id": "123"}},
	{"test://template/{id}/data", "test://template/aZ0-._~/data", v{"id": "aZ0-._~"}},
	{"test://template/{id}/data", "TEST://template/1/data", v{"id": "1"}},
	{"test://template/{id}/data", "Test://template/1/data", v{"id": "1"}},
	{"test://template/{id}/data", "test://TEMPLATE/1/data", nil},
	{"test://template/{id}/data", "test://template/1/DATA", nil},
	{"test://template/{id}/data", "test://template//data", nil},
	{"test://template/{id}/data", "test://template/a/b/data", nil},
	{"test://template/{id}/data", "test://template/1/data/", nil},
	{"test://template/{id}/data", "test://template/1/data?x=1", nil},
	{"test://template/{id}/data", "test://template/1/data#f", nil},
	{"test://template/{id}/data", "test://template/a?b/data", nil},
	{"test://template/{id}/data", "test://template/a#b/data", nil},
	{"test://template/{id}/data", "test://template/a;b/data", nil},
	{"test://template/{id}/data", "test://template/a b/data", nil},
	{"test://template/{id}/data", "test://template/1/data\n", nil},
	{"test://template/{id}/data", "test://template/a%2Fb/data", v{"id": "a/b"}},
	{"test://template/{id}/data", "test://template/a%2fb/data", v{"id": "a/b"}},
	{"test://template/{id}/data", "test://template/%2E%2E/data", v{"id": ".."}},
	{"test://template/{id}/data", "test://template/../data", v{"id": ".."}},
	{"test://template/{id}/data", "test://template/%00/data", v{"id": "\x00"}},
	{"test://template/{id}/data", "test://template/a%20b/data", v{"id": "a b"}},
	{"test://template/{id}/data", "test://template/%zz/data", nil},
	{"test://template/{id}/data", "test://template/%4/data", nil},
	{"test://template/{id}/data", "test://template/%/data", nil},
	{"test://template/{id}/data", "test://template/1%/data", nil},
	{"test://template/{id}/data", "test://template/%FF/data", nil},
	{"test://template/{id}/data", "test://template/%C3/data", nil},
	{"test://template/{id}/data", "test://template/%C0%AF/data", nil},
	{"test://template/{id}/data", "test://template/%ED%A0%80/data", nil},
	{"test://template/{id}/data", "test://template/%F4%90%80%80/data", nil},
	{"test://template/{id}/data", "test://template/\xff/data", nil},
	{"test://template/{id}/data", "test://template/caf%C3%A9/data", v{"id": "café"}},
	{"test://template/{id}/data", "test://template/caf%c3%a9/data", v{"id": "café"}},
	{"test://template/{id}/data", "test://template/café/data", v{"id": "café"}},
	{"test://template/{id}/data", "test://template/😀/data", v{"id": "😀"}},
	{"test://template/{id}/data", "test://template/%F0%9F%98%80/data", v{"id": "😀"}},
	{"test://template/{id}/data", "test://template/\ufffd/data", nil},
	{"test://template/{id}/data", "test://template/\u0085/data", nil},
	{"test://template/{id}/data", "test://template/%C2%85/data", v{"id": "\u0085"}},
	{"test://template/{id}/data", "", nil},
	// A reserved variable spanning the path.
	{"file:///{+path}", "file:///a/b/c.txt", v{"path": "a/b/c.txt"}},
	{"file:///{+path}", "file:///a/b/", v{"path": "a/b/"}},
	{"file:///{+path}", "FILE:///a", v{"path": "a"}},
	{"file:///{+path}", "file:///", nil},
	{"file:///{+path}", "file://host/a", nil},
	{"file:///{+path}", "file:///a/../../etc/passwd", v{"path": "a/../../etc/passwd"}},
	{"file:///{+path}", "file:///a%2F..%2Fb", v{"path": "a/../b"}},
	{"file:///{+path}", "file:///my%20file.txt", v{"path": "my file.txt"}},
	{"file:///{+path}", "file:///C:/x/[1];v=2,@!", v{"path": "C:/x/[1];v=2,@!"}},
	{"file:///{+path}", "file:///ü/ß", v{"path": "ü/ß"}},
	{"file:///{+path}", "file:///a%3Fb%23c", v{"path": "a?b#c"}},
	{"file:///{+path}", "file:///a?x=1", nil},
	{"file:///{+path}", "file:///a#frag", nil},
	{"file:///{+path}", "file:///a%zz", nil},
	{"file:///{+path}", "file:///a b", nil},
	{"file:///{+path}", "file:///a\\b", nil},
	// {+var} in the query and the fragment may hold "?" but never "#".
	{"x?q={+v}", "x?q=a?b&c=d", v{"v": "a?b&c=d"}},
	{"x?q={+v}", "x?q=a#b", nil},
	{"x#{+v}", "x#a?b/c", v{"v": "a?b/c"}},
	{"x{#v}", "x#a?b/c", v{"v": "a?b/c"}},
	{"x{#v}", "x#a#b", nil},
	{"x{#v}", "x#", nil},
	{"x{#v}", "x", nil},
	// Ambiguous splits: greedy from the left.
	{"{+dir}/{file}", "a/b/c", v{"dir": "a/b", "file": "c"}},
	{"{+dir}/{file}", "a/b/", nil},
	{"{+a}/{+b}", "x/y/z", v{"a": "x/y", "b": "z"}},
	{"{a}{b}", "xyz", v{"a": "xy", "b": "z"}},
	{"{a}{b}", "x", nil},
	{"{a}{b}", "x%C3%A9", v{"a": "x", "b": "é"}},
	{"{+x,y}", "a,b,c", v{"x": "a,b", "y": "c"}},
	{"{name}{.ext}", "a.b.c", v{"name": "a.b", "ext": "c"}},
	// Prefix modifiers count decoded characters, on the greedy split.
	{"{a:3}", "abc", v{"a": "abc"}},
	{"{a:3}", "abcd", nil},
	{"{a:3}", "%C3%A9%C3%A9%C3%A9", v{"a": "ééé"}},
	{"{a:3}", "ééé", v{"a": "ééé"}},
	{"{a:3}", "ééééé", nil},
	{"{a:2}{b}", "xyz", v{"a": "xy", "b": "z"}},
	{"{a:1}{b}", "xyz", nil},
	{"x{?q:2}", "x?q=ab", v{"q": "ab"}},
	{"x{?q:2}", "x?q=abc", nil},
	// Several variables in one expression are all required.
	{"{x,y}", "1024,768", v{"x": "1024", "y": "768"}},
	{"{x,y}", "1024", nil},
	{"{x,y}", "1024,", nil},
	{"{x,y}", "1024,768,1", nil},
	{"{x,y}", "a%2Cb,c", v{"x": "a,b", "y": "c"}},
	// Labels and segments.
	{"x{.ext}", "x.tar.gz", v{"ext": "tar.gz"}},
	{"x{.ext}", "x.", nil},
	{"x{.ext}", "x", nil},
	{"x{/seg}", "x/a", v{"seg": "a"}},
	{"x{/seg}", "x/a/b", nil},
	{"x{/seg}", "x/", nil},
	{"x{/seg,n}", "x/a/1", v{"seg": "a", "n": "1"}},
	{"x{/seg*}", "x/a/b/c", v{"seg": "a/b/c"}},
	{"x{/seg*}", "x/a", v{"seg": "a"}},
	{"x{/seg*}", "x/a//b", nil},
	{"x{/seg*}", "x/a/", nil},
	{"x{/seg*}", "x/a%2Fb", nil},
	{"x{/seg*}", "x/a%2fb", nil},
	{"x{/seg*}", "x/%2E%2E/b", v{"seg": "../b"}},
	{"x{/seg*}{?q}", "x/a/b?q=1", v{"seg": "a/b", "q": "1"}},
	{"{list*}", "a,b,c", v{"list": "a,b,c"}},
	{"{list*}", "a%2Cb", nil},
	{"www{.dom*}", "www.example.com", v{"dom": "example.com"}},
	// Path-style parameters.
	{"x{;a,b}", "x;a=1;b=2", v{"a": "1", "b": "2"}},
	{"x{;a,b}", "x;b=2;a=1", v{"a": "1", "b": "2"}},
	{"x{;a,b}", "x;a", v{"a": ""}},
	{"x{;a,b}", "x;a=", v{"a": ""}},
	{"x{;a,b}", "x", v{}},
	{"x{;a,b}", "x;", nil},
	{"x{;a,b}", "x;a=1;a=2", nil},
	{"x{;a,b}", "x;c=1", nil},
	{"x{;a,b}", "x;ab=1", nil},
	{"x{;list*}", "x;list=red;list=green", v{"list": "red,green"}},
	// Query parameters.
	{"search{?q,limit}", "search?q=go&limit=10", v{"q": "go", "limit": "10"}},
	{"search{?q,limit}", "search?limit=10&q=go", v{"q": "go", "limit": "10"}},
	{"search{?q,limit}", "search?limit=10", v{"limit": "10"}},
	{"search{?q,limit}", "search", v{}},
	{"search{?q,limit}", "search?q=", v{"q": ""}},
	{"search{?q,limit}", "search?q", v{"q": ""}},
	{"search{?q,limit}", "search?q=a%2Bb%26c%3Dd", v{"q": "a+b&c=d"}},
	{"search{?q,limit}", "search?q=a+b", nil},
	{"search{?q,limit}", "search?", nil},
	{"search{?q,limit}", "search&q=1", nil},
	{"search{?q,limit}", "search?q=1?limit=2", nil},
	{"search{?q,limit}", "search?q=1&q=2", nil},
	{"search{?q,limit}", "search?q=1&x=2", nil},
	{"search{?q,limit}", "search?Q=1", nil},
	{"search{?q,limit}", "search?q=1#f", nil},
	{"search{?q,limit}", "search?q=1&", nil},
	{"search{?tag*}", "search?tag=a&tag=b&tag=", v{"tag": "a,b,"}},
	{"search{?tag*}", "search?tag=a%2Cb", nil},
	{"x{?a}{&b}", "x?a=1&b=2", v{"a": "1", "b": "2"}},
	{"x{?a}{&b}", "x&b=2", v{"b": "2"}},
	{"x{?a%2Fb}", "x?a%2fb=1", v{"a%2Fb": "1"}},
	{"?fixed=yes{&x}", "?fixed=yes&x=1024", v{"x": "1024"}},
	// Literals.
	{"test://static", "test://static", v{}},
	{"test://static", "test://static/", nil},
	{"a%2Fb/{x}", "a%2fb/1", v{"x": "1"}},
	{"a%2Fb/{x}", "a/b/1", nil},
	{"a%41/{x}", "aA/1", nil},
	{"test://é/{x}", "test://é/1", v{"x": "1"}},
	{"test://é/{x}", "test://%C3%A9/1", nil},
	{"{x}://k", "s://K", nil},
	{"k://x", "\u212a://x", nil},
}

func TestMatch(t *testing.T) {
	for _, tt := range matchTests {
		tp, err := Parse(tt.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := tp.Match(tt.uri)
		switch {
		case tt.want == nil && ok:
			t.Errorf("%s matched %q: %q, want no match", tt.tmpl, tt.uri, got)
		case tt.want != nil && !ok:
			t.Errorf("%s did not match %q, want %q", tt.tmpl, tt.uri, tt.want)
		case !maps.Equal(got, tt.want):
			t.Errorf("%s matched %q: %q, want %q", tt.tmpl, tt.uri, got, tt.want)
		}
	}
}

func TestMatchLength(t *testing.T) {
	tp, err := Parse("file:///{+path}")
	if err != nil {
		t.Fatal(err)
	}
	head := "file:///"
	atLimit := head + strings.Repeat("a", MaxURILength-len(head))
	if got, ok := tp.Match(atLimit); !ok || len(got["path"]) != MaxURILength-len(head) {
		t.Errorf("a uri of MaxURILength bytes did not match")
	}
	for _, n := range []int{MaxURILength + 1, 1 << 20} {
		if _, ok := tp.Match(head + strings.Repeat("a", n-len(head))); ok {
			t.Errorf("a uri of %d bytes matched", n)
		}
	}
}

// TestMatchTime runs templates that make the regexp keep many threads
// alive over uris of MaxURILength bytes: Match must stay linear (RE2), and
// a 1 MiB uri must be refused at once.
func TestMatchTime(t *testing.T) {
	var names, plus []string
	for i := range MaxVars {
		names = append(names, "{v"+string(rune('a'+i%26))+string(rune('a'+i/26))+"}")
		plus = append(plus, "{+v"+string(rune('a'+i%26))+string(rune('a'+i/26))+"}")
	}
	tests := []struct{ tmpl, unit string }{
		{strings.Join(names, ""), "a"},
		{strings.Join(names, ""), "%C3%A9"},
		{strings.Join(plus, "/"), "/"},
		{strings.Join(plus, "/") + "x", "a/"},
		{"x{?q,r*}", "&r=1"},
		{"x{;q,r*}", ";r"},
		{"file:///{+path}", "a/"},
		{"test://template/{id}/data", "%2E"},
	}
	// Exponential backtracking would take years; linear takes well under a
	// second (under -race, on an eighth of the length: see raceEnabled).
	const budget = 5 * time.Second
	long := MaxURILength
	if raceEnabled {
		long /= 8
	}
	for _, tt := range tests {
		tp, err := Parse(tt.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{long, 1 << 20} {
			uri := strings.Repeat(tt.unit, n/len(tt.unit))
			start := time.Now()
			tp.Match(uri)
			if d := time.Since(start); d > budget {
				t.Errorf("%s on %d bytes of %q took %v", tt.tmpl, len(uri), tt.unit, d)
			}
		}
	}
	tp, err := Parse("x{?q,r*}")
	if err != nil {
		t.Fatal(err)
	}
	n := (MaxURILength - 5) / 4
	got, ok := tp.Match("x?q=1" + strings.Repeat("&r=1", n))
	if !ok || len(got["r"]) != 2*n-1 {
		t.Errorf("%s did not match %d repeats of r", tp, n)
	}
}

func TestMatchConcurrent(t *testing.T) {
	tp, err := Parse("test://template/{id}/data{?q}")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	for i := range 4 {
		go func() {
			id := strings.Repeat("x", i+1)
			ok := true
			for range 200 {
				got, m := tp.Match("test://template/" + id + "/data?q=" + id)
				ok = ok && m && got["id"] == id && got["q"] == id
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("a concurrent Match returned another call's values")
		}
	}
}
