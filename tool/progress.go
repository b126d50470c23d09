package tool

import (
	"context"

	"github.com/mcpwire/mcpwire/internal/callctx"
)

// ReportProgress reports progress for the current call. It does nothing and
// returns nil when the client did not ask for progress.
func ReportProgress(ctx context.Context, progress, total float64, message string) error {
	c := callctx.From(ctx)
	if c == nil {
		return nil
	}
	return c.Progress(progress, total, message)
}
