package protocol

// Revision is a protocol revision this module knows, as an ordinal: a
// later revision compares greater, so a feature gate is one comparison
// with the revision that introduced the feature. The zero value is
// RevisionUnknown. The wire form is the revision's date (String).
//
// Only the server's negotiation (package mcp) chooses a revision; every
// other package asks a Revision what it has.
type Revision uint8

// The revisions, oldest first.
const (
	// RevisionUnknown is a version string this module does not know.
	RevisionUnknown Revision = iota
	// Revision20241105 is the first published revision.
	Revision20241105
	// Revision20250326 added tool annotations, audio content, the
	// completions capability, progress messages and JSON-RPC batches.
	Revision20250326
	// Revision20250618 added structured tool output, titles, resource
	// links, _meta on content, and the MCP-Protocol-Version HTTP header;
	// it removed batches.
	Revision20250618
	// Revision20251125 added icons, titled and multi-select elicitation
	// fields, and SSE polling on Streamable HTTP.
	Revision20251125
	// Revision20260728 is the stateless revision: no initialize, every
	// request carries its own _meta, results carry resultType.
	Revision20260728
)

// Version is the wire form of the newest revision, Latest, which these
// types describe: Latest.String() as a constant.
const Version = "2026-07-28"

// revisionDates are the wire forms, indexed by Revision.
var revisionDates = [...]string{
	Revision20241105: "2024-11-05",
	Revision20250326: "2025-03-26",
	Revision20250618: "2025-06-18",
	Revision20251125: "2025-11-25",
	Revision20260728: Version,
}

// LatestLegacy is the newest revision of the legacy (initialize) era.
const LatestLegacy = Revision20251125

// Latest is the newest revision this module knows.
const Latest = Revision20260728

// Revisions returns every known revision, oldest first (a new slice each
// time).
func Revisions() []Revision {
	out := make([]Revision, 0, len(revisionDates)-1)
	for r := Revision20241105; r <= Latest; r++ {
		out = append(out, r)
	}
	return out
}

// ParseRevision returns the revision whose date is s, or RevisionUnknown.
func ParseRevision(s string) Revision {
	for r := Revision20241105; r <= Latest; r++ {
		if revisionDates[r] == s {
			return r
		}
	}
	return RevisionUnknown
}

// String returns the revision's date as the wire spells it, or "" for
// RevisionUnknown.
func (r Revision) String() string {
	if r == RevisionUnknown || r > Latest {
		return ""
	}
	return revisionDates[r]
}

// Known reports whether r is a revision this module knows.
func (r Revision) Known() bool { return r != RevisionUnknown && r <= Latest }

// Era returns the era r belongs to; EraUnknown for RevisionUnknown.
func (r Revision) Era() Era {
	switch {
	case !r.Known():
		return EraUnknown
	case r >= Revision20260728:
		return Modern
	}
	return Legacy
}

// EraOfVersion returns the era of a version string, known or not:
// revisions are dates, and every date before the first modern revision's
// is legacy. It returns EraUnknown for a string that is not a date.
func EraOfVersion(v string) Era {
	if r := ParseRevision(v); r.Known() {
		return r.Era()
	}
	if !isDate(v) {
		return EraUnknown
	}
	if v < revisionDates[Revision20260728] {
		return Legacy
	}
	return Modern
}

// isDate reports whether s has the form YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 4 || i == 7 {
			if c != '-' {
				return false
			}
			continue
		}
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Modern reports whether r is of the stateless era: resultType, cache
// hints, per-request _meta, x-mcp-header and any-JSON structured output.
func (r Revision) Modern() bool { return r >= Revision20260728 && r.Known() }

// Era is a protocol era. The zero value, EraUnknown, stands for "not yet
// known" (a client that detects the era starts there).
type Era uint8

// Eras.
const (
	// EraUnknown is an era not yet known or chosen.
	EraUnknown Era = iota
	// Legacy is the initialize-handshake era (2024-11-05 to 2025-11-25):
	// client info and capabilities come from the session.
	Legacy
	// Modern is the stateless era (2026-07-28 and later): client info and
	// capabilities come from each request's _meta.
	Modern
)

// String returns "legacy", "modern" or "unknown".
func (e Era) String() string {
	switch e {
	case Legacy:
		return "legacy"
	case Modern:
		return "modern"
	}
	return "unknown"
}
