package mcp

import "github.com/mcpwire/mcpwire/protocol"

// The server serves every revision package protocol knows: this file is
// where it chooses one. Everyone else asks the chosen protocol.Revision.

// supportedVersions is every revision served, newest first (so the modern
// ones before the legacy ones), as server/discover and -32022 errors
// advertise them. Read-only.
var supportedVersions = newestFirst()

// newestFirst returns the wire forms of protocol.Revisions, newest first.
func newestFirst() []string {
	rs := protocol.Revisions()
	out := make([]string, 0, len(rs))
	for i := len(rs) - 1; i >= 0; i-- {
		out = append(out, rs[i].String())
	}
	return out
}

// legacyRev returns the served legacy revision whose date is v, or
// protocol.RevisionUnknown.
func legacyRev(v string) protocol.Revision {
	if r := protocol.ParseRevision(v); r.Era() == protocol.Legacy {
		return r
	}
	return protocol.RevisionUnknown
}

// modernRev returns the served modern revision whose date is v, or
// protocol.RevisionUnknown.
func modernRev(v string) protocol.Revision {
	if r := protocol.ParseRevision(v); r.Modern() {
		return r
	}
	return protocol.RevisionUnknown
}

// negotiate returns the version to answer an initialize request with:
// initialize always selects the legacy era, the requested revision if it
// is served, else the newest legacy one.
func negotiate(requested string) string {
	if legacyRev(requested).Known() {
		return requested
	}
	return protocol.LatestLegacy.String()
}
