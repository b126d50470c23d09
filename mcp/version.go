package mcp

// Protocol revisions.
const (
	Version20241105 = "2024-11-05"
	Version20250326 = "2025-03-26"
	Version20250618 = "2025-06-18"
	Version20251125 = "2025-11-25"
	Version20260728 = "2026-07-28"
)

// LatestLegacyVersion is the revision offered to an initialize request for a
// version this server does not serve.
const LatestLegacyVersion = Version20251125

// LegacyVersions returns the legacy revisions served, newest first (a new
// slice each time).
func LegacyVersions() []string {
	return []string{Version20251125, Version20250618, Version20250326, Version20241105}
}

// ModernVersions returns the modern (stateless) revisions served, newest
// first (a new slice each time).
func ModernVersions() []string { return []string{Version20260728} }

// SupportedVersions returns every revision served, modern first, as
// server/discover and -32022 errors advertise them (a new slice each time).
func SupportedVersions() []string { return append(ModernVersions(), LegacyVersions()...) }

// rev is a revision as an ordinal, so features can be compared by age.
type rev int

const (
	rev20241105 rev = iota + 1
	rev20250326
	rev20250618
	rev20251125
	rev20260728
)

// legacyRev returns the ordinal of a supported legacy version, 0 otherwise.
func legacyRev(v string) rev {
	switch v {
	case Version20241105:
		return rev20241105
	case Version20250326:
		return rev20250326
	case Version20250618:
		return rev20250618
	case Version20251125:
		return rev20251125
	}
	return 0
}

// modernRev returns the ordinal of a supported modern version, 0 otherwise.
func modernRev(v string) rev {
	if v == Version20260728 {
		return rev20260728
	}
	return 0
}

// negotiate returns the version to answer an initialize request with:
// initialize always selects the legacy era.
func negotiate(requested string) string {
	if legacyRev(requested) != 0 {
		return requested
	}
	return LatestLegacyVersion
}

// Feature gates, by the revision that introduced each wire feature.
func (r rev) hasToolAnnotations() bool       { return r >= rev20250326 }
func (r rev) hasAudio() bool                 { return r >= rev20250326 }
func (r rev) hasCompletionsCapability() bool { return r >= rev20250326 }
func (r rev) hasProgressMessage() bool       { return r >= rev20250326 }
func (r rev) hasBatches() bool               { return r == rev20250326 }
func (r rev) hasStructured() bool            { return r >= rev20250618 } // structuredContent, outputSchema
func (r rev) hasTitles() bool                { return r >= rev20250618 } // title on tools and Implementation
func (r rev) hasResourceLink() bool          { return r >= rev20250618 }
func (r rev) hasContentMeta() bool           { return r >= rev20250618 } // _meta on blocks and tools, lastModified
func (r rev) hasSelectEnums() bool           { return r >= rev20251125 } // titled and multi-select elicitation fields (SEP-1330)
func (r rev) hasIcons() bool                 { return r >= rev20251125 } // icons, Implementation.description/websiteUrl
func (r rev) modern() bool                   { return r >= rev20260728 } // resultType, cache hints, any-JSON structured output
