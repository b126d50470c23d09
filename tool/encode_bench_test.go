package tool

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

var benchSink *Result

// BenchmarkEncodeOut compares the encoding of a typed handler's Out with
// the wire model against goccy/go-json's, on a small and a richer value.
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
				raw, err := marshalStructured(c.v)
				if err != nil {
					b.Fatal(err)
				}
				benchSink = &Result{Content: []Content{&Text{Text: string(raw)}}, Structured: json.RawMessage(raw)}
			}
		})
		b.Run(c.name+"/wire", func(b *testing.B) {
			enc := encoderFor(reflect.TypeOf(c.v))
			p := reflect.New(reflect.TypeOf(c.v))
			p.Elem().Set(reflect.ValueOf(c.v))
			b.ReportAllocs()
			for b.Loop() {
				res, err := encodeStructured(enc, p.Elem())
				if err != nil {
					b.Fatal(err)
				}
				benchSink = res
			}
		})
	}
}
