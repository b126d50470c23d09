package probe_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/calltest"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
)

// The benchmarks call handlers the way the server does, with the request
// info in the context, to show that a call that is not a probe pays nothing
// measurable for being wrapped: compare BenchmarkCallPlain with
// BenchmarkCallWrapped (no _meta) and BenchmarkCallWrappedMeta (a _meta
// with a progress token).

var benchArgs = json.RawMessage(`{"path":"a.txt"}`)

func benchHandler(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }

func benchTool() tool.Tool {
	return tool.Tool{Name: "bench", Handler: benchHandler}
}

func callCtx(meta string) context.Context {
	return calltest.WithMeta(context.Background(), meta)
}

func benchCall(b *testing.B, h tool.Handler, ctx context.Context) {
	for b.Loop() {
		if _, err := h(ctx, benchArgs); err != nil {
			b.Fatal(err)
		}
	}
}

var wrappedHandler = probe.Wrap(benchTool(), probe.Fixed()).Handler

func BenchmarkCallPlain(b *testing.B) { benchCall(b, benchHandler, callCtx("")) }

func BenchmarkCallWrapped(b *testing.B) { benchCall(b, wrappedHandler, callCtx("")) }

func BenchmarkCallPlainMeta(b *testing.B) {
	benchCall(b, benchHandler, callCtx(`{"progressToken":"tok-1"}`))
}

func BenchmarkCallWrappedMeta(b *testing.B) {
	benchCall(b, wrappedHandler, callCtx(`{"progressToken":"tok-1"}`))
}

// BenchmarkCallWrappedModernMeta is a call with the _meta of a modern-era
// request, whose "clientInfo" holds an 'f' that the near-miss scan checks.
func BenchmarkCallWrappedModernMeta(b *testing.B) {
	benchCall(b, wrappedHandler, callCtx(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"host","version":"1.0.0"},"progressToken":"tok-1"}`))
}

// BenchmarkCallGuarded is a tool without probe support behind Guard.
func BenchmarkCallGuarded(b *testing.B) {
	t := benchTool()
	benchCall(b, probe.Guard()(t, t.Handler), callCtx(""))
}

// BenchmarkProbe is the cost of answering a probe, for comparison.
func BenchmarkProbe(b *testing.B) {
	benchCall(b, wrappedHandler, callCtx(`{"forge.permission_patterns":true}`))
}

// A wrapped or guarded call that is not a probe allocates nothing more than
// the plain handler. (A _meta that holds the probe key, even as false, is
// parsed, which allocates.)
func TestNonProbeCallAllocatesNothing(t *testing.T) {
	guarded := probe.Guard()(benchTool(), benchHandler)
	for _, meta := range []string{"", `{"progressToken":"tok-1"}`} {
		ctx := callCtx(meta)
		for name, h := range map[string]tool.Handler{"wrapped": wrappedHandler, "guarded": guarded} {
			plain := testing.AllocsPerRun(100, func() { benchHandler(ctx, benchArgs) })
			got := testing.AllocsPerRun(100, func() { h(ctx, benchArgs) })
			if got > plain {
				t.Errorf("%s call with _meta %q: %v allocations, plain %v", name, meta, got, plain)
			}
		}
	}
}

// The BenchmarkServerCall benchmarks measure a whole tools/call round trip
// through an mcp.Server: a plain tool with no middleware (Bare), a plain
// tool behind Guard (Plain), and a wrapped tool behind Guard (Wrapped). The
// differences are the price of probe support on the ordinary call path.
func BenchmarkServerCallBare(b *testing.B) { benchServer(b, &mcp.Options{}, benchTool()) }

func BenchmarkServerCallPlain(b *testing.B) { benchServer(b, guarded(), benchTool()) }

func BenchmarkServerCallWrapped(b *testing.B) {
	benchServer(b, guarded(), probe.Wrap(benchTool(), probe.Fixed()))
}

func benchServer(b *testing.B, opts *mcp.Options, t tool.Tool) {
	t.InputSchema = json.RawMessage(touchSchema)
	s := serve(b, opts, t)
	params := `{"name":"bench","arguments":{"path":"a.txt"}}`
	for b.Loop() {
		if resp := s.request("tools/call", params); resp.Error != nil {
			b.Fatal(resp.Error)
		}
	}
}
