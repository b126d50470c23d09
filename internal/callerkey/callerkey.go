// Package callerkey names who a request counts against for the limits a
// server keeps per caller (listen streams, tasks, a share of the running
// calls, legacy HTTP sessions): the principal when one with a subject is
// known, else the remote address, else no one in particular (the one
// caller of a stdio connection).
package callerkey

import (
	"context"

	"github.com/mcpwire/mcpwire/auth"
)

// Of returns the caller key of ctx's request: "sub:" and the principal's
// subject (auth.WithPrincipal), else the remote address as it is
// (auth.WithRemoteAddr), else "". Keys of the two kinds never collide: an
// address (an IP address, or what a non-IP listener names its peers) never
// starts with "sub:", and it is used as it is so that the common anonymous
// request allocates nothing for its key.
func Of(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	if p := auth.PrincipalFrom(ctx); p != nil && p.Subject != "" {
		return "sub:" + p.Subject
	}
	return auth.RemoteAddrFrom(ctx)
}
