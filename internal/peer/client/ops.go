package client

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// SetLogLevel asks the server for notifications/message at level and
// more severe (the specification's Logging section; Options.OnNotification
// receives them). In the legacy era it sends logging/setLevel; in the
// 2026-07-28 era, which removed that request, every later request carries
// level as its _meta logLevel, since a server logs to a request only when
// it asks.
func (s *Session) SetLogLevel(ctx context.Context, level protocol.LoggingLevel) error {
	if s.era == protocol.Modern {
		s.mu.Lock()
		s.logLevel = level
		s.mu.Unlock()
		return nil
	}
	_, rpcErr, err := s.Call(ctx, protocol.MethodSetLevel, map[string]any{"level": level})
	if err != nil {
		return err
	}
	if rpcErr != nil {
		return rpcErr
	}
	return nil
}

// Complete asks completion/complete for the values of the argument named
// argument of ref (a prompt or a resource template) that complete value
// (the specification's Completion section).
func (s *Session) Complete(ctx context.Context, ref protocol.CompletionReference, argument, value string) (*protocol.Completion, error) {
	params := map[string]any{"ref": ref, "argument": protocol.CompleteArgument{Name: argument, Value: value}}
	raw, rpcErr, err := s.Call(ctx, protocol.MethodComplete, params)
	if err != nil {
		return nil, err
	}
	if rpcErr != nil {
		return nil, rpcErr
	}
	var r protocol.CompleteResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("%w: the %s result: %v", ErrBadAnswer, protocol.MethodComplete, err)
	}
	return &r.Completion, nil
}
