package uritemplate

import (
	"strings"
	"testing"
)

var benchSink map[string]string

// BenchmarkMatch measures Match on the two template shapes MCP servers
// use most: one segment variable between literals, and a reserved
// variable spanning the rest of the path; each on a short uri and, for
// the cost per byte, a long one.
func BenchmarkMatch(b *testing.B) {
	long := strings.Repeat("abcdefgh/", 1000)
	for _, c := range []struct{ name, tmpl, uri string }{
		{"segment", "test://template/{id}/data", "test://template/abc-123/data"},
		{"segment/encoded", "test://template/{id}/data", "test://template/caf%C3%A9%20au%20lait/data"},
		{"segment/long", "test://template/{id}/data", "test://template/" + strings.ReplaceAll(long, "/", "") + "/data"},
		{"reserved", "file:///{+path}", "file:///home/user/project/src/main.go"},
		{"reserved/long", "file:///{+path}", "file:///" + long},
		{"query", "test://search{?q,limit}", "test://search?q=hello%20world&limit=10"},
	} {
		tp, err := Parse(c.tmpl)
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := tp.Match(c.uri); !ok {
			b.Fatalf("%s does not match %s", c.tmpl, c.uri)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.uri)))
			b.ReportAllocs()
			for b.Loop() {
				benchSink, _ = tp.Match(c.uri)
			}
		})
	}
}
