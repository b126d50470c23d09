package scenario

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
)

func TestProgressRoutes(t *testing.T) {
	r := NewProgressRoutes("sdk")
	var got string
	record := func(name string) func(Progress) {
		return func(p Progress) { got = name + ":" + p.Message }
	}
	a := r.Add(record("a"))
	b := r.Add(record("b"))
	if a != "sdk-1" || b != "sdk-2" {
		t.Fatalf("tokens %q and %q, want sdk-1 and sdk-2", a, b)
	}
	tests := []struct {
		name  string
		token any
		want  string // "" when nothing must be delivered
	}{
		{"first token", "sdk-1", "a:first token"},
		{"second token", "sdk-2", "b:second token"},
		{"unknown token dropped", "sdk-3", ""},
		{"token of another type dropped", 1, ""},
		{"still registered after use", "sdk-1", "a:still registered after use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = ""
			r.Deliver(tt.token, Progress{Message: tt.name})
			if got != tt.want {
				t.Errorf("delivered %q, want %q", got, tt.want)
			}
		})
	}
}

// TestProgressRoutesConcurrent shows that tokens stay unique and delivery
// is safe when calls add routes while notifications arrive.
func TestProgressRoutesConcurrent(t *testing.T) {
	r := NewProgressRoutes("c")
	var mu sync.Mutex
	tokens := map[string]bool{}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			tok := r.Add(func(Progress) {})
			r.Deliver(tok, Progress{})
			mu.Lock()
			tokens[tok] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(tokens) != 50 {
		t.Errorf("%d distinct tokens, want 50", len(tokens))
	}
}

func TestToolsOf(t *testing.T) {
	conv := func(name string) (Tool, error) {
		if name == "bad" {
			return Tool{}, errors.New("bad tool")
		}
		return Tool{Name: name}, nil
	}
	tests := []struct {
		name    string
		in      []string
		want    []Tool
		wantErr bool
	}{
		{"none", nil, nil, false},
		{"in order", []string{"b", "a"}, []Tool{{Name: "b"}, {Name: "a"}}, false},
		{"error stops", []string{"a", "bad", "c"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToolsOf(tt.in, conv)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if !slices.EqualFunc(got, tt.want, func(a, b Tool) bool { return a.Name == b.Name }) || (got == nil) != (tt.want == nil) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestNewResult(t *testing.T) {
	type block struct {
		Type string `json:"type"`
		Text string `json:"text,omitempty"`
		Data string `json:"data,omitempty"`
	}
	tests := []struct {
		name           string
		content        []block
		structured     any
		wantTypes      []string
		wantText       string
		wantStructured string
	}{
		{"no content", nil, nil, []string{}, "", ""},
		{"text and image", []block{{Type: "text", Text: "hi"}, {Type: "image", Data: "AA=="}}, nil,
			[]string{"text", "image"}, "hi", ""},
		{"raw structured kept", []block{{Type: "text", Text: "x"}}, json.RawMessage(`{"a": 1}`),
			[]string{"text"}, "x", `{"a": 1}`},
		{"structured value encoded", nil, map[string]int{"a": 1}, []string{}, "", `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewResult(tt.content, tt.structured, true)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Types(), tt.wantTypes) || !r.IsError {
				t.Errorf("types %q, isError %v; want %q, true", r.Types(), r.IsError, tt.wantTypes)
			}
			if len(r.Content) > 0 && r.Content[0].Text != tt.wantText {
				t.Errorf("first text %q, want %q", r.Content[0].Text, tt.wantText)
			}
			if string(r.Structured) != tt.wantStructured {
				t.Errorf("structured %s, want %s", r.Structured, tt.wantStructured)
			}
		})
	}
}
