package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/mcpwire/mcpwire/internal/peer/check"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/httpconn"
	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// ruleHTTP is the finding of an HTTP exchange that breaks the Streamable
// HTTP transport's rules outside any message (httpconn.Conn.Problems).
const ruleHTTP = "http-transport"

// checkURL refuses a --url that is not an absolute http or https URL.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("--url: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--url %q: want an http:// or https:// URL, such as http://127.0.0.1:8080/mcp", raw)
	}
	return nil
}

// reviewURL reviews the Streamable HTTP endpoint at cfg.url as
// reviewServer reviews a subprocess: the same session, over
// httpconn.Conn, the same review, bounded by cfg.total. What the server
// did wrong at the HTTP level outside any message is reported with the
// session's own findings.
func reviewURL(ctx context.Context, cfg config) *report {
	ctx, cancel := context.WithTimeout(ctx, cfg.total)
	defer cancel()
	rep := newReport()
	rep.command = cfg.url + ", Streamable HTTP"
	rep.Transport = check.TransportHTTP
	opts := httpconn.Options{Header: cfg.header}
	if cfg.signIn {
		wrap, stop, err := signInWrap(cfg.url)
		if err != nil {
			rep.Fail("start", err)
			return rep.finish()
		}
		defer stop()
		opts.Wrap = wrap
	}
	conn, err := httpconn.New(cfg.url, opts)
	if err != nil {
		rep.Fail("start", err)
		return rep.finish()
	}
	sess, err := connect(ctx, conn, cfg.url, cfg)
	if err != nil {
		rep.Fail("connect", unreachable(conn, err, len(cfg.header) > 0))
		rep.Problems = append(rep.Problems, httpProblems(conn)...)
		return rep.finish()
	}
	defer sess.Close()
	rep.Report = check.Run(ctx, sess, cfg.reviewOptions(func() []review.Problem { return httpProblems(conn) }))
	rep.Transport = check.TransportHTTP
	return rep
}

// unreachable words a handshake that failed at the HTTP level: nothing
// answered at the URL (no server, a refused connection, a name that does
// not resolve), or what answered is no MCP endpoint (an HTTP error, a web
// page, a 401 that wants a token: sent says whether check sent
// headers). The client quotes a server/discover answer clipped, so an
// invalid answer is told in full from conn's last failure.
func unreachable(conn *httpconn.Conn, err error, sent bool) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("no MCP handshake: cannot reach %s: %w", conn.URL(), ue.Err)
	}
	msg, ok := httpconn.Failure(err)
	if !ok && errors.Is(err, client.ErrBadAnswer) {
		msg = conn.LastFailure()
	}
	if challenge, ok := conn.Unauthorized(); ok {
		if msg == "" {
			return fmt.Errorf("%w; %s", err, unauthorizedHint(challenge, sent))
		}
		return fmt.Errorf("no MCP handshake: %s; %s", msg, unauthorizedHint(challenge, sent))
	}
	if msg != "" {
		return fmt.Errorf("no MCP handshake: %s; is %s an MCP endpoint?", msg, conn.URL())
	}
	return err
}

// httpProblems reports what the Conn found wrong in the server's HTTP
// exchanges outside any message.
func httpProblems(conn *httpconn.Conn) []review.Problem {
	var out []review.Problem
	for _, p := range conn.Problems() {
		out = append(out, review.Problem{Gate: check.GateDiscover, Rule: ruleHTTP, Message: p})
	}
	return out
}
