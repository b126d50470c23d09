package apps_test

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/apps"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/testsupport/pipeclient"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const page = "<!doctype html><html><body><p>calculator</p></body></html>"

var calculator = apps.Resource{
	URI: "ui://calc/view.html", Name: "calculator", Title: "Calculator", HTML: page,
	Meta: apps.ResourceMeta{
		CSP:           &apps.CSP{ConnectDomains: []string{"https://api.example.com"}},
		Permissions:   &apps.Permissions{ClipboardWrite: true},
		PrefersBorder: ptr(true),
	},
}

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sum struct {
	Sum int `json:"sum"`
}

// appServer serves calculator with three tools: show (linked, visible to
// both), add (linked, the app's alone) and secret (linked, the model's
// alone). calls counts the calls that reached a handler, by tool.
type appServer struct {
	srv   *mcp.Server
	calls map[string]*atomic.Int64
}

func newAppServer(t *testing.T) *appServer {
	t.Helper()
	a := &appServer{srv: mcp.NewServer(mcp.Implementation{Name: "calc", Version: "1"}, nil), calls: map[string]*atomic.Int64{}}
	if err := apps.Add(a.srv, calculator); err != nil {
		t.Fatal(err)
	}
	adder := func(name string) func(context.Context, addArgs) (sum, error) {
		n := &atomic.Int64{}
		a.calls[name] = n
		return func(_ context.Context, in addArgs) (sum, error) {
			n.Add(1)
			return sum{in.A + in.B}, nil
		}
	}
	for _, tl := range []tool.Tool{
		calculator.Link(tool.New("show", "Shows the calculator.", adder("show"))),
		calculator.Link(tool.New("add", "Adds, for the calculator.", adder("add")), apps.VisibleToApp),
		calculator.Link(tool.New("secret", "The model's alone.", adder("secret")), apps.VisibleToModel),
		tool.New("plain", "Not an app's.", adder("plain")),
	} {
		if err := a.srv.AddTool(tl); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// connect serves srv over a pipe to a client of era declaring exts.
func connect(t *testing.T, srv *mcp.Server, era protocol.Era, exts ...client.Extension) *client.Client {
	t.Helper()
	return pipeclient.Connect(t, srv, &client.Options{Era: era, Logger: quiet, Extensions: exts})
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func ptr[T any](v T) *T { return &v }

var eras = []protocol.Era{protocol.Legacy, protocol.Modern}
