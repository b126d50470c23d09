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

func TestRevisionGates(t *testing.T) {
	tests := []struct {
		name  string
		gate  func(Revision) bool
		first Revision
		only  bool
	}{
		{"annotations", Revision.HasToolAnnotations, Revision20250326, false},
		{"audio", Revision.HasAudio, Revision20250326, false},
		{"batches", Revision.HasBatches, Revision20250326, true},
		{"structured", Revision.HasStructured, Revision20250618, false},
		{"resource links", Revision.HasResourceLinks, Revision20250618, false},
		{"version header", Revision.HasVersionHeader, Revision20250618, false},
		{"icons", Revision.HasIcons, Revision20251125, false},
		{"polling", Revision.HasSSEPolling, Revision20251125, false},
		{"modern", Revision.Modern, Revision20260728, false},
	}
	for _, tt := range tests {
		if tt.gate(RevisionUnknown) {
			t.Errorf("%s: open for RevisionUnknown", tt.name)
		}
		for _, r := range Revisions() {
			want := r >= tt.first
			if tt.only {
				want = r == tt.first
			}
			if got := tt.gate(r); got != want {
				t.Errorf("%s at %v = %v, want %v", tt.name, r, got, want)
			}
		}
	}
	if Revision20250618.ObjectOutput() != true || Revision20260728.ObjectOutput() || Revision20250326.ObjectOutput() {
		t.Error("ObjectOutput: only the 2025 revisions with structured output")
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
