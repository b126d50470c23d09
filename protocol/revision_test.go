package protocol

import "testing"

func TestRevisionRoundTrip(t *testing.T) {
	rs := Revisions()
	if len(rs) != 5 || rs[0] != Revision20241105 || rs[len(rs)-1] != Latest {
		t.Fatalf("Revisions() = %v", rs)
	}
	for i, r := range rs {
		if got := ParseRevision(r.String()); got != r {
			t.Errorf("ParseRevision(%q) = %v, want %v", r.String(), got, r)
		}
		if i > 0 && !(rs[i-1] < r && rs[i-1].String() < r.String()) {
			t.Errorf("%v is not after %v", r, rs[i-1])
		}
	}
	if Latest.String() != Version {
		t.Errorf("Latest is %q, Version %q", Latest, Version)
	}
	if ParseRevision("2025-06-19") != RevisionUnknown || RevisionUnknown.String() != "" {
		t.Error("an unknown date must parse to RevisionUnknown")
	}
}

func TestRevisionModern(t *testing.T) {
	if RevisionUnknown.Modern() {
		t.Error("Modern: open for RevisionUnknown")
	}
	for _, r := range Revisions() {
		if got, want := r.Modern(), r >= Revision20260728; got != want {
			t.Errorf("Modern at %v = %v, want %v", r, got, want)
		}
	}
}

func TestEraOfVersion(t *testing.T) {
	for v, want := range map[string]Era{
		"2024-11-05": Legacy, "2025-11-25": Legacy, "2025-12-01": Legacy,
		"2026-07-28": Modern, "2027-01-01": Modern,
		"": EraUnknown, "latest": EraUnknown, "2025-1-01": EraUnknown,
	} {
		if got := EraOfVersion(v); got != want {
			t.Errorf("EraOfVersion(%q) = %v, want %v", v, got, want)
		}
	}
	if Revision20250618.Era() != Legacy || Latest.Era() != Modern || RevisionUnknown.Era() != EraUnknown {
		t.Error("Revision.Era")
	}
}
