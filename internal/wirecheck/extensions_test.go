package wirecheck

import (
	"strings"
	"testing"
)

// The tasks extension's status notification passes in 2026-07-28 when its
// envelope is sound, is still refused with a broken envelope, and is an
// unknown method in a revision without the extension.
func TestExtensionNotification(t *testing.T) {
	c := checker(t)
	note := `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t1","status":"working"}}`
	if err := c.ServerMessage("2026-07-28", "", []byte(note)); err != nil {
		t.Errorf("2026-07-28: %v", err)
	}
	broken := `{"jsonrpc":"1.0","method":"notifications/tasks","params":{}}`
	if err := c.ServerMessage("2026-07-28", "", []byte(broken)); err == nil {
		t.Error("a broken envelope passed")
	}
	if err := c.ServerMessage("2025-11-25", "", []byte(note)); err == nil || !strings.Contains(err.Error(), "notifications/tasks") {
		t.Errorf("2025-11-25: %v, want an unknown method", err)
	}
}
