package schema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// Schemas the fast path does not take keep the same nesting limit: an
// instance deeper than jsonx.MaxDepth gets the depth violation, which the
// library alone would not give.
func TestSlowPathDepthLimit(t *testing.T) {
	s, err := Compile([]byte(`{"type":"array","contains":{"type":"number"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.fast != nil {
		t.Fatal("the schema was meant to take the library path")
	}
	deep := strings.Repeat("[", jsonx.MaxDepth+1) + strings.Repeat("]", jsonx.MaxDepth+1)
	if got := s.Validate([]byte(deep)); !cmp.Equal(got, []Violation{depthViolation}) {
		t.Errorf("got %v, want %v", got, depthViolation)
	}
	if got := s.Validate([]byte(`[[1],2]`)); got != nil {
		t.Errorf("a shallow valid instance: %v", got)
	}
}
