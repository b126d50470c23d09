package harness

import "testing"

func TestWireSplitsLinesAcrossWrites(t *testing.T) {
	var w Wire
	w.Feed(ClientToServer, []byte(`{"jsonrpc":"2.0","id":1,"meth`))
	w.Feed(ServerToClient, []byte(`{"jsonrpc":"2.0","method":"notifications/progress"}`+"\n"))
	w.Feed(ClientToServer, []byte(`od":"tools/list"}`+"\nnot json\n"))
	lines := w.Lines()
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3: %+v", len(lines), lines)
	}
	tests := []struct {
		dir    Dir
		valid  bool
		method string
		id     string
	}{
		{ServerToClient, true, "notifications/progress", ""},
		{ClientToServer, true, "tools/list", "1"},
		{ClientToServer, false, "", ""},
	}
	for i, tt := range tests {
		l := lines[i]
		if l.Dir != tt.dir || l.Valid != tt.valid || l.Method != tt.method || l.ID != tt.id || l.Seq != i {
			t.Errorf("line %d = %+v, want %+v", i, l, tt)
		}
	}
	if got := w.FirstClientLine(); got != `{"jsonrpc":"2.0","id":1,"method":"tools/list"}` {
		t.Errorf("FirstClientLine() = %q", got)
	}
}

func TestWireResponseTo(t *testing.T) {
	var w Wire
	w.Feed(ServerToClient, []byte(`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool"}}`+"\n"))
	w.Feed(ServerToClient, []byte(`{"jsonrpc":"2.0","id":9,"error":{"code":-32002,"message":"x","data":{"uri":"test://a"}}}`+"\n"))
	l, ok := w.ResponseTo("7")
	if !ok || !l.IsError || l.ErrCode != -32602 || l.ErrMsg != "Unknown tool" || l.ErrData != nil {
		t.Fatalf("ResponseTo(7) = %+v, %v", l, ok)
	}
	if l, ok := w.ResponseTo("9"); !ok || string(l.ErrData) != `{"uri":"test://a"}` {
		t.Fatalf("ResponseTo(9) = %+v, %v; want error.data kept", l, ok)
	}
	if _, ok := w.ResponseTo("8"); ok {
		t.Fatal("ResponseTo(8) found a response that was never sent")
	}
}
