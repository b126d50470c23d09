package feature

import (
	"testing"

	"github.com/mcpwire/mcpwire/protocol"
)

// Each gate opens at the revision that introduced its feature and stays
// open after it (batches: only there), and is shut for RevisionUnknown.
func TestGates(t *testing.T) {
	tests := []struct {
		name  string
		gate  func(protocol.Revision) bool
		first protocol.Revision
		only  bool
	}{
		{"annotations", ToolAnnotations, protocol.Revision20250326, false},
		{"audio", Audio, protocol.Revision20250326, false},
		{"completions", Completions, protocol.Revision20250326, false},
		{"progress message", ProgressMessage, protocol.Revision20250326, false},
		{"batches", Batches, protocol.Revision20250326, true},
		{"structured", Structured, protocol.Revision20250618, false},
		{"titles", Titles, protocol.Revision20250618, false},
		{"resource links", ResourceLinks, protocol.Revision20250618, false},
		{"content meta", ContentMeta, protocol.Revision20250618, false},
		{"version header", VersionHeader, protocol.Revision20250618, false},
		{"select enums", SelectEnums, protocol.Revision20251125, false},
		{"icons", Icons, protocol.Revision20251125, false},
		{"polling", SSEPolling, protocol.Revision20251125, false},
	}
	for _, tt := range tests {
		if tt.gate(protocol.RevisionUnknown) {
			t.Errorf("%s: open for RevisionUnknown", tt.name)
		}
		for _, r := range protocol.Revisions() {
			want := r >= tt.first
			if tt.only {
				want = r == tt.first
			}
			if got := tt.gate(r); got != want {
				t.Errorf("%s at %v = %v, want %v", tt.name, r, got, want)
			}
		}
	}
	if !ObjectOutput(protocol.Revision20250618) || ObjectOutput(protocol.Revision20260728) || ObjectOutput(protocol.Revision20250326) {
		t.Error("ObjectOutput: only the 2025 revisions with structured output")
	}
}
