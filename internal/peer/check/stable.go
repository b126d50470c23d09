package check

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// maxNamed bounds the names one finding lists.
const maxNamed = 5

// compare reports how a second listing differs from the first: other
// items (by the member that names them), the same ones in another order,
// or an item whose descriptor changed (compared as JSON values, so key
// order and white space do not count).
func compare(k List, first, second []json.RawMessage) []finding {
	a, b := keys(k, first), keys(k, second)
	var out []finding
	if gone, added := missing(a, b), missing(b, a); len(gone)+len(added) > 0 {
		out = append(out, finding{RuleListContent, fmt.Sprintf("two %s listings differ: %d %ss, then %d%s%s",
			k.Method, len(a), k.Noun, len(b), named("; only in the first: ", gone), named("; only in the second: ", added))})
	} else if i := firstDifference(a, b); i >= 0 {
		out = append(out, finding{RuleListOrder, fmt.Sprintf("two %s listings gave the same %ss in another order: %s came first, then %s, at position %d",
			k.Method, k.Noun, clip.Quote(a[i]), clip.Quote(b[i]), i+1)})
	}
	at := map[string]int{}
	for j, key := range b {
		at[key] = j
	}
	var changed []string
	for i, key := range a {
		if j, ok := at[key]; ok && !sameJSON(first[i], second[j]) {
			changed = append(changed, key)
		}
	}
	if len(changed) > 0 {
		out = append(out, finding{RuleListContent, fmt.Sprintf("two %s listings gave different descriptors for %s",
			k.Method, named("", changed))})
	}
	return out
}

// duplicates reports the names one listing gives more than one item.
func duplicates(k List, items []json.RawMessage) *finding {
	seen := map[string]int{}
	var dup []string
	for _, key := range keys(k, items) {
		if seen[key]++; seen[key] == 2 {
			dup = append(dup, key)
		}
	}
	if dup == nil {
		return nil
	}
	return &finding{RuleListDuplicate, fmt.Sprintf("%s lists more than one %s named %s: a client keeps one of them",
		k.Method, k.Noun, named("", dup))}
}

// keys names each item by its k.ID member, or by its position when that
// is not a string.
func keys(k List, items []json.RawMessage) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = idOf(it, k.ID)
		if out[i] == "" {
			out[i] = "#" + strconv.Itoa(i+1)
		}
	}
	return out
}

// idOf returns the string member of an item, "" when it has none.
func idOf(item json.RawMessage, member string) string {
	var m map[string]json.RawMessage
	var s string
	if member == "" || json.Unmarshal(item, &m) != nil || json.Unmarshal(m[member], &s) != nil {
		return ""
	}
	return s
}

// missing returns the keys of a that b lacks.
func missing(a, b []string) []string {
	in := map[string]bool{}
	for _, k := range b {
		in[k] = true
	}
	var out []string
	for _, k := range a {
		if !in[k] {
			out = append(out, k)
		}
	}
	return out
}

// firstDifference returns the first position where a and b differ, -1
// when they are equal.
func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(x, y)
}

// named lists up to maxNamed quoted names after prefix, "" for none.
func named(prefix string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, 0, maxNamed)
	for _, n := range names[:min(len(names), maxNamed)] {
		q = append(q, clip.Quote(n))
	}
	s := prefix + strings.Join(q, ", ")
	if len(names) > maxNamed {
		s += fmt.Sprintf(" and %d more", len(names)-maxNamed)
	}
	return s
}
