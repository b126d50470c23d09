package mcptest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// rawServer answers server/discover, then writes garbage; it answers any
// other request with {}, and stops at the client's EOF.
func rawServer(t *testing.T) *client.Session {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	go func() {
		defer sw.Close()
		br := bufio.NewReader(sr)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			msg, _ := jsonrpc.Decode(line[:len(line)-1])
			if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "server/discover" {
				io.WriteString(sw, `{"jsonrpc":"2.0","id":`+r.ID.Raw()+`,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}}`+"\n")
				io.WriteString(sw, "garbage\n")
			} else if ok {
				io.WriteString(sw, `{"jsonrpc":"2.0","id":`+r.ID.Raw()+`,"result":{}}`+"\n")
			}
		}
	}()
	s, err := client.Connect(context.Background(), transport.NewStream(cr, cw, transport.Options{}), client.Options{Era: protocol.Modern})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The cleanup reports what the server got wrong: garbage it wrote, an
// error from Serve, a Serve that does not return.
func TestCloseReports(t *testing.T) {
	serveTimeout = 50 * time.Millisecond
	defer func() { serveTimeout = 5 * time.Second }()
	tests := []struct {
		name   string
		served func(chan error)
		want   string
	}{
		{name: "garbage", served: func(c chan error) { c <- nil }, want: "cannot read"},
		{name: "Serve failed", served: func(c chan error) { c <- errors.New("disk on fire") }, want: "disk on fire"},
		{name: "Serve hangs", served: func(chan error) {}, want: "did not return"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rawServer(t)
			if _, _, err := s.Call(context.Background(), "x/sync", nil); err != nil { // read after the garbage
				t.Fatal(err)
			}
			served := make(chan error, 1)
			tt.served(served)
			rec := &recorder{TB: t}
			(&Client{session: s}).close(rec, func() {}, served)
			if !strings.Contains(strings.Join(rec.errors, "\n"), tt.want) {
				t.Errorf("reported %q, want %q", rec.errors, tt.want)
			}
		})
	}
}

type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
