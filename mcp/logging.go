package mcp

import (
	"context"
	"log/slog"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/ratelimit"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// defaultLegacyLogLevel is the minimum level forwarded to a legacy client
// that never sent logging/setLevel.
const defaultLegacyLogLevel = "info"

func parseLevel(name string) (slog.Level, bool) { return protocol.LoggingLevel(name).Slog() }

// levelName returns the MCP name for a slog level (the highest name at or
// below it).
func levelName(l slog.Level) string { return string(protocol.LoggingLevelOf(l)) }

func handleSetLevel(_ context.Context, ss *session, _ *call, _ *request, p *protocol.SetLevelRequestParams) (any, error) {
	name := string(p.Level)
	if name == "" {
		return nil, invalidParams(`logging/setLevel needs a string "level"`)
	}
	if _, ok := parseLevel(name); !ok {
		return nil, invalidParams("unknown log level %s: use debug, info, notice, warning, error, critical, alert or emergency", clip.Quote(name))
	}
	ss.mu.Lock()
	ss.logLevel = name
	ss.mu.Unlock()
	return json.RawMessage("{}"), nil
}

// minLogLevel returns the least severe level the client asked to receive
// for this call, and false when it asked for none.
func (c *call) minLogLevel() (slog.Level, bool) {
	name := c.req.logLevel
	if !c.req.modern() {
		c.ss.mu.Lock()
		name = c.ss.logLevel
		c.ss.mu.Unlock()
		if name == "" {
			name = defaultLegacyLogLevel
		}
	}
	if name == "" {
		return 0, false
	}
	return parseLevel(name)
}

// LogEnabled reports whether the client asked for level, for Logger.
func (c *call) LogEnabled(l slog.Level) bool {
	min, ok := c.minLogLevel()
	return ok && l >= min
}

// Log sends one notifications/message, for Logger.
func (c *call) Log(l slog.Level, logger string, data any) error {
	if !c.LogEnabled(l) {
		return nil
	}
	if !c.ss.logLimit.allow() {
		return nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	b, err := json.Marshal(protocol.LoggingMessageNotificationParams{
		Level: protocol.LoggingLevel(levelName(l)), Logger: logger, Data: raw,
	})
	if err != nil {
		return err
	}
	return c.notify(&jsonrpc.Notification{Method: protocol.NotificationMessage, Params: b})
}

// notify sends a notification tied to this call, unless the call has been
// answered or cancelled: nothing for a request goes out after that.
func (c *call) notify(n *jsonrpc.Notification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return ErrCallDone
	}
	c.emit(n)
	return nil
}

// rateLimiter is the token bucket of forwarded log messages, which warns
// (at most once a second) of the messages it drops.
type rateLimiter struct {
	bucket  *ratelimit.Bucket
	log     *slog.Logger
	mu      sync.Mutex
	dropped int
	warned  time.Time
}

func newRateLimiter(perSecond, burst int, log *slog.Logger) *rateLimiter {
	return &rateLimiter{bucket: ratelimit.NewBucket(perSecond, burst), log: log}
}

// allow takes one token, reporting false (and counting the drop) when the
// bucket is empty.
func (r *rateLimiter) allow() bool {
	if r.bucket.Allow() {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dropped++
	if now := time.Now(); r.log != nil && now.Sub(r.warned) > time.Second {
		r.log.Warn("mcp: log messages to the client dropped by the rate limit", "dropped", r.dropped)
		r.warned = now
	}
	return false
}
