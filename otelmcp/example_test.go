package otelmcp_test

import (
	"log"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/otelmcp"
)

// A server traced and measured with the SDK's providers (an exporter
// would be configured on them), served over HTTP with its health checks.
func Example() {
	tp := sdktrace.NewTracerProvider()
	mp := sdkmetric.NewMeterProvider()
	obs, err := otelmcp.New(&otelmcp.Options{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		log.Fatal(err)
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "traced"}, &mcp.Options{Observer: obs})
	h := mcphttp.NewHandler(srv, nil)
	defer h.Close()
	// mux.Handle("/mcp", h); mux.Handle("/readyz", h.ReadyHandler()); ...
	// Output:
}
