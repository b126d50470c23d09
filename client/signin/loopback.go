package signin

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// Loopback is the user's step of the authorization code flow for a
// program on the user's machine (RFC 8252, OAuth 2.0 for Native Apps): it
// listens on a loopback port, opens the user's browser at the
// authorization URL, and takes the redirect back on its port.
//
//	lb, err := signin.ListenLoopback()
//	...
//	defer lb.Close()
//	flow, err := signin.New(signin.Config{RedirectURL: lb.RedirectURL(), Authorize: lb.Authorize})
type Loopback struct {
	// Open shows the authorization URL to the user; nil opens the
	// default browser, and writes the URL to stderr when that fails.
	Open func(authorizationURL string) error

	ln   net.Listener
	srv  *http.Server
	path string
	mu   sync.Mutex
	wait chan *url.URL // the current Authorize's redirect; nil when none waits
}

// ListenLoopback listens on a port of 127.0.0.1 that the system chooses
// (RFC 8252 §7.3: the IP literal, not "localhost", and any port). Close
// stops it.
func ListenLoopback() (*Loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("signin: loopback: %w", err)
	}
	l := &Loopback{ln: ln, path: "/callback"}
	l.srv = &http.Server{Handler: http.HandlerFunc(l.serve), ReadHeaderTimeout: 10 * time.Second}
	go l.srv.Serve(ln)
	return l, nil
}

// RedirectURL is the redirect_uri to register and send: the loopback
// address with its port and path.
func (l *Loopback) RedirectURL() string { return "http://" + l.ln.Addr().String() + l.path }

// Close stops listening.
func (l *Loopback) Close() error { return l.srv.Close() }

// Authorize is a Config.Authorize: it shows the authorization URL to the
// user and waits, bounded by ctx, for the browser's redirect. One
// authorization runs at a time.
func (l *Loopback) Authorize(ctx context.Context, authorizationURL string) (*url.URL, error) {
	ch := make(chan *url.URL, 1)
	l.mu.Lock()
	if l.wait != nil {
		l.mu.Unlock()
		return nil, errors.New("signin: loopback: another authorization is waiting")
	}
	l.wait = ch
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.wait = nil
		l.mu.Unlock()
	}()
	open := l.Open
	if open == nil {
		open = openBrowser
	}
	if err := open(authorizationURL); err != nil {
		return nil, fmt.Errorf("signin: showing the authorization URL: %w", err)
	}
	select {
	case u := <-ch:
		return u, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("signin: waiting for the browser's redirect: %w", context.Cause(ctx))
	}
}

// serve takes the redirect: a GET of the callback path while an
// Authorize waits. Anything else is 404.
func (l *Loopback) serve(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	ch := l.wait
	l.mu.Unlock()
	if r.Method != http.MethodGet || r.URL.Path != l.path || ch == nil {
		http.NotFound(w, r)
		return
	}
	u := *r.URL
	u.Scheme, u.Host = "http", l.ln.Addr().String()
	select {
	case ch <- &u:
	default: // a second redirect for one authorization: the first counts
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	msg := "Signed in. You can close this window."
	if e := r.URL.Query().Get("error"); e != "" {
		msg = "The sign-in failed: " + e + ". You can close this window."
	}
	fmt.Fprintf(w, "<!doctype html><title>mcpwire</title><p>%s</p>\n", html.EscapeString(msg))
}

// openBrowser opens u in the default browser, or writes it to stderr for
// the user to open.
func openBrowser(u string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	if err := cmd.Start(); err == nil {
		go cmd.Wait()
		fmt.Fprintln(os.Stderr, "Opened your browser to sign in. If it did not open, visit:\n  "+u)
		return nil
	}
	fmt.Fprintln(os.Stderr, "To sign in, open this URL in your browser:\n  "+u)
	return nil
}
