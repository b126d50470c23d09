package natural

import (
	"reflect"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

type encBenchSmall struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

type encBenchItem struct {
	ID    int     `json:"id"`
	Score float64 `json:"score"`
	Note  *string `json:"note,omitempty"`
}

type encBenchRich struct {
	Name   string            `json:"name"`
	Tags   []string          `json:"tags"`
	Labels map[string]string `json:"labels"`
	Items  []encBenchItem    `json:"items"`
	When   time.Time         `json:"when"`
}

var benchSink []byte

// BenchmarkEncodeOut compares the encoding of a typed handler's Out by
// its members with goccy/go-json's, on a small and a richer value.
func BenchmarkEncodeOut(b *testing.B) {
	rich := encBenchRich{Name: "n", Tags: []string{"a", "b"}, Labels: map[string]string{"x": "1", "y": "2"},
		Items: []encBenchItem{{1, 2.5, nil}, {2, 3, nil}}, When: time.Unix(1700000000, 0).UTC()}
	for _, c := range []struct {
		name string
		v    any
	}{{"small", encBenchSmall{"hello, world", 3}}, {"rich", rich}} {
		b.Run(c.name+"/goccy", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				raw, err := json.MarshalWithOption(c.v, json.DisableHTMLEscape())
				if err != nil {
					b.Fatal(err)
				}
				benchSink = raw
			}
		})
		b.Run(c.name+"/wire", func(b *testing.B) {
			enc := For(reflect.TypeOf(c.v))
			p := reflect.New(reflect.TypeOf(c.v))
			p.Elem().Set(reflect.ValueOf(c.v))
			b.ReportAllocs()
			for b.Loop() {
				raw, err := enc.Encode(p.Elem())
				if err != nil {
					b.Fatal(err)
				}
				benchSink = raw
			}
		})
	}
}
