package review

// rev is a protocol revision as an ordinal, so that a feature gate is one
// comparison with the revision that introduced the feature.
type rev int

const (
	revUnknown rev = iota
	rev20241105
	rev20250326
	rev20250618
	rev20251125
	rev20260728
)

// revisions are the revisions the reviewer knows, oldest first; the index
// of each is its rev minus one.
var revisions = [...]string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// Revisions returns the protocol revisions the reviewer knows, oldest
// first: the values the revision argument of every function may take.
func Revisions() []string { return append([]string(nil), revisions[:]...) }

func parseRev(s string) rev {
	for i, r := range revisions {
		if r == s {
			return rev(i + 1)
		}
	}
	return revUnknown
}

func (r rev) String() string {
	if r == revUnknown {
		return "an unknown revision"
	}
	return revisions[r-1]
}

// Feature gates, by the revision that introduced each (DIGEST §16).
func (r rev) hasAudio() bool        { return r >= rev20250326 }
func (r rev) hasStructured() bool   { return r >= rev20250618 } // outputSchema, structuredContent
func (r rev) hasResourceLink() bool { return r >= rev20250618 }
func (r rev) modern() bool          { return r >= rev20260728 } // resultType, x-mcp-header, any-root outputSchema

// objectOutput reports whether outputSchema and structuredContent must be
// objects: the 2025 revisions that define them (DIGEST §4.2, §17 item 16).
func (r rev) objectOutput() bool { return r.hasStructured() && !r.modern() }
