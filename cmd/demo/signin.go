package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/protocol"
)

// httpSignIn starts everything -http -auth dev and signs in to it with
// package client and client/signin, printing each step of the sign-in
// (what signin logs: never a token, a code or a secret), then calls a tool
// with the token.
func (s *session) httpSignIn() {
	srv, err := startHTTP(s.bin, s.timeout, "-auth", "dev")
	if !s.check(err == nil, "starting everything -http -auth dev: %v", err) {
		return
	}
	s.http = srv
	defer s.stopHTTP()
	steps := &stepLog{s: s}
	flow, err := signin.New(signin.Config{
		RedirectURL: "http://127.0.0.1:8976/callback", // never listened on: the redirect is read, not followed
		Authorize:   signin.FollowRedirect(nil),
		ClientName:  "mcpwire demo",
		Logger:      slog.New(steps),
	})
	if !s.check(err == nil, "signin.New: %v", err) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	c, err := client.Connect(ctx, client.HTTP{URL: srv.url, SignIn: flow}, &client.Options{
		ClientInfo: protocol.Implementation{Name: "mcpwire-demo", Version: "1"},
	})
	if !s.check(err == nil, "connect with sign-in: %v", err) {
		return
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "echo", map[string]any{"text": "signed in"})
	if !s.check(err == nil, "tools/call echo: %v", err) {
		return
	}
	var text []string
	for _, b := range res.Content {
		if b.Text != nil {
			text = append(text, b.Text.Text)
		}
	}
	s.httpLine(true, "tools/call echo {text: \"signed in\"} with the token → "+strings.Join(text, " "))
	s.check(steps.n >= 3, "the sign-in logged %d steps, want registration, authorization and the token", steps.n)
}

// stepLog is a slog.Handler that prints each sign-in step as a client
// line, with its attributes.
type stepLog struct {
	s *session
	n int
}

func (l *stepLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *stepLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *stepLog) WithGroup(string) slog.Handler            { return l }
func (l *stepLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "issuer" {
			return true // a random port
		}
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	l.n++
	l.s.httpLine(false, b.String())
	return nil
}
