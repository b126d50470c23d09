package check

import (
	"fmt"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// compare and duplicates: what two listings may differ in.
func TestCompare(t *testing.T) {
	raw := func(items ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(items))
		for i, it := range items {
			out[i] = json.RawMessage(it)
		}
		return out
	}
	a, b, c := `{"name":"a","x":1,"y":2}`, `{"name":"b"}`, `{"name":"c"}`
	for _, tc := range []struct {
		name          string
		first, second []json.RawMessage
		want          []string // rule ids
	}{
		{"same, key order and spaces aside", raw(a, b), raw(`{ "y":2, "x":1, "name":"a" }`, b), nil},
		{"another order", raw(a, b, c), raw(a, c, b), []string{RuleListOrder}},
		{"one more", raw(a, b), raw(a, b, c), []string{RuleListContent}},
		{"one changed", raw(a, b), raw(`{"name":"a","x":3,"y":2}`, b), []string{RuleListContent}},
		{"unnamed items by position", raw(`{"x":1}`, `{"x":2}`), raw(`{"x":1}`, `{"x":2}`), nil},
	} {
		var got []string
		for _, f := range compare(ToolList, tc.first, tc.second) {
			got = append(got, f.rule)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if d := duplicates(ToolList, raw(a, b, a)); d == nil || d.rule != RuleListDuplicate || !strings.Contains(d.msg, `"a"`) {
		t.Errorf("duplicates: %+v", d)
	}
	if d := duplicates(ToolList, raw(a, b)); d != nil {
		t.Errorf("no duplicates: %+v", d)
	}
}
