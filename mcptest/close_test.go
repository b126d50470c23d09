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

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// badTools is a tools/list result with a tool whose inputSchema is not an
// object schema, which the Admit gate refuses, and a good one.
const badTools = `{"resultType":"complete","tools":[` +
	`{"name":"bad","inputSchema":{"type":"string"}},` +
	`{"name":"good","inputSchema":{"type":"object"}}]}`

// rawServer answers server/discover, then writes garbage when garbage is
// set; it answers tools/list with badTools and any other request with
// {}, and stops at the client's EOF.
func rawServer(t *testing.T, garbage bool, opts *client.Options) *client.Client {
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
			r, ok := msg.(*jsonrpc.Request)
			switch {
			case !ok:
			case r.Method == "server/discover":
				io.WriteString(sw, `{"jsonrpc":"2.0","id":`+r.ID.Raw()+`,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}}`+"\n")
				if garbage {
					io.WriteString(sw, "garbage\n")
				}
			case r.Method == "tools/list":
				io.WriteString(sw, `{"jsonrpc":"2.0","id":`+r.ID.Raw()+`,"result":`+badTools+`}`+"\n")
			default:
				io.WriteString(sw, `{"jsonrpc":"2.0","id":`+r.ID.Raw()+`,"result":{}}`+"\n")
			}
		}
	}()
	o := client.Options{Era: protocol.Modern, NoCache: true}
	if opts != nil {
		o = *opts
		o.Era, o.NoCache = protocol.Modern, true
	}
	c, err := client.Connect(context.Background(), client.Conn{Conn: transport.NewStream(cr, cw, transport.Options{})}, &o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The cleanup reports what the server got wrong: garbage it wrote, a
// descriptor the Admit gate refused, an error from Serve, a Serve that
// does not return; the test's own Admit policy is not the server's fault.
func TestCloseReports(t *testing.T) {
	serveTimeout = 50 * time.Millisecond
	defer func() { serveTimeout = 5 * time.Second }()
	noGood := &client.Options{Admit: func(_ protocol.Implementation, tool *protocol.Tool) error {
		if tool.Name == "good" {
			return errors.New("not this one")
		}
		return nil
	}}
	tests := []struct {
		name    string
		garbage bool
		list    bool // list the tools
		opts    *client.Options
		served  func(chan error)
		want    string // "": no error
	}{
		{name: "garbage", garbage: true, served: func(c chan error) { c <- nil }, want: "cannot read"},
		{name: "refused tool", list: true, served: func(c chan error) { c <- nil }, want: "admit refused: bad: "},
		{name: "Serve failed", served: func(c chan error) { c <- errors.New("disk on fire") }, want: "disk on fire"},
		{name: "Serve hangs", served: func(chan error) {}, want: "did not return"},
		{name: "clean", served: func(c chan error) { c <- nil }},
		{name: "Lenient", list: true, opts: &client.Options{Lenient: true}, served: func(c chan error) { c <- nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := rawServer(t, tt.garbage, tt.opts)
			if err := c.Call(context.Background(), "x/sync", nil, nil); err != nil { // read after the garbage
				t.Fatal(err)
			}
			if tt.list {
				for _, err := range c.Tools(context.Background()) {
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			served := make(chan error, 1)
			tt.served(served)
			rec := &recorder{TB: t}
			closeClient(rec, c, func() {}, served)
			got := strings.Join(rec.errors, "\n")
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("reported %q, want %q", rec.errors, tt.want)
			}
		})
	}
	t.Run("policy", func(t *testing.T) {
		c := rawServer(t, false, noGood)
		var names []string
		for tool, err := range c.Tools(context.Background()) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
		}
		served := make(chan error, 1)
		served <- nil
		rec := &recorder{TB: t}
		closeClient(rec, c, func() {}, served)
		if len(names) != 0 || len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "bad") {
			t.Errorf("listed %q, reported %q; want nothing listed and only the refusal of bad", names, rec.errors)
		}
	})
}

type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
