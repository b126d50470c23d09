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

// A listen acknowledgement's taskIds (the tasks extension's) passes in
// 2026-07-28 as an array of strings, is refused as anything else, and the
// rest of the filter is still checked by the schema.
func TestExtensionTaskIDs(t *testing.T) {
	c := checker(t)
	ack := func(filter string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":` + filter +
			`,"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}`)
	}
	for _, tc := range []struct {
		filter string
		ok     bool
	}{
		{`{"toolsListChanged":true,"taskIds":["a","b"]}`, true},
		{`{"taskIds":[]}`, true},
		{`{"taskIds":"a"}`, false},
		{`{"taskIds":[1]}`, false},
		{`{"taskIds":["a"],"toolsListChanged":"yes"}`, false},
		{`{"taskIds":["a"],"unknownMember":true}`, false},
	} {
		err := c.ServerMessage("2026-07-28", "", ack(tc.filter))
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok=%v", tc.filter, err, tc.ok)
		}
	}
}
