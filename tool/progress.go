package tool

import "context"

// Reporter sends progress for the call in progress. The mcp package puts one
// in a handler's context when the request carried a progress token.
type Reporter interface {
	// Progress reports how far the call has come. progress must increase
	// from one report to the next; total is 0 when unknown.
	Progress(progress, total float64, message string) error
}

type reporterKey struct{}

// WithReporter returns a context carrying r.
func WithReporter(ctx context.Context, r Reporter) context.Context {
	return context.WithValue(ctx, reporterKey{}, r)
}

// ReportProgress reports progress for the current call. It does nothing and
// returns nil when the client did not ask for progress.
func ReportProgress(ctx context.Context, progress, total float64, message string) error {
	r, ok := ctx.Value(reporterKey{}).(Reporter)
	if !ok {
		return nil
	}
	return r.Progress(progress, total, message)
}
