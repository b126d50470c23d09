package httpconn

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// Defaults of Options.
const (
	// DefaultMaxMessageBytes bounds a JSON body and an SSE event: the
	// message cap of the stdio transport, 16 MiB.
	DefaultMaxMessageBytes = transport.DefaultMaxMessageBytes
	// DefaultCloseTimeout bounds the DELETE that ends a legacy session.
	DefaultCloseTimeout = 2 * time.Second
)

// Bounds of the conn's own.
const (
	maxProblems  = 64               // problems kept; later ones are counted
	inboxSize    = 64               // messages read ahead of Read
	maxResumes   = 5                // reconnections of one POST's stream
	defaultRetry = time.Second      // the wait before a reconnection without a retry hint
	maxRetry     = 10 * time.Second // the longest retry hint followed
	maxRedirects = 5                // 307 and 308 redirects followed
	streamWait   = 2 * time.Second  // the longest wait for the legacy GET stream to open
)

// Options configure a Conn. The zero value is ready to use.
type Options struct {
	// Client sends every HTTP request. Nil: a client of the Conn's own,
	// with a transport cloned from http.DefaultTransport, that follows only
	// 307 and 308 redirects (which keep the method and the body), and whose
	// connections Close closes.
	Client *http.Client
	// Header is added to every request, such as Authorization.
	Header http.Header
	// Wrap, when set, wraps the transport of the client that sends every
	// request (Client's, or the Conn's own): a sign-in goes there.
	Wrap func(http.RoundTripper) http.RoundTripper
	// MaxMessageBytes bounds a JSON response body and an SSE event
	// (default DefaultMaxMessageBytes); a larger one fails its request.
	MaxMessageBytes int
	// NoStream keeps a legacy session from opening its GET stream of the
	// server's own messages.
	NoStream bool
	// CloseTimeout bounds the DELETE of a legacy session on Close (default
	// DefaultCloseTimeout).
	CloseTimeout time.Duration
	// ExcludeInvalidTools refuses, without POSTing it, a tools/call of a
	// tool whose x-mcp-header annotations the tools/list carried break the
	// rules: the 2026-07-28 Streamable HTTP transport (Custom Headers from
	// Tool Parameters) has clients exclude such a tool. The call gets an
	// error response, -32602, from the Conn itself. Off, such a tool is
	// called without its Mcp-Param headers, which lets a reviewer (mcpwire
	// check) see what the server does with the call.
	ExcludeInvalidTools bool
	// Named maps methods an extension adds to the params member their
	// 2026-07-28 Mcp-Name header mirrors (the built-in methods' are known).
	Named map[string]string
}

// Conn is a transport.Conn to one Streamable HTTP endpoint (see the
// package documentation). Its methods follow transport.Conn's contract:
// Write is safe for concurrent use, Read is for one goroutine, Close is
// idempotent and unblocks Read.
type Conn struct {
	url    string
	opts   Options
	client *http.Client
	own    *http.Transport // the transport of a client of the Conn's own

	life  context.Context // ends with Close: every request's context
	stop  context.CancelFunc
	inbox chan item

	broken    chan struct{} // closed when a request could not be sent or read
	brokenErr error         // why; set before broken closes
	breakOnce sync.Once

	mu           sync.Mutex
	closed       bool
	wg           sync.WaitGroup // the goroutines of requests and of the GET stream
	sessionID    string
	version      string // the legacy revision initialize negotiated
	legacy       bool   // initialize was answered
	listening    bool   // the GET stream was tried
	annotations  map[string][]header.Annotation
	invalid      map[string]error // the tools whose annotations break the rules, and why
	inflight     map[string]*call
	problems     []string
	more         int
	lastFailure  string // the message of the last request that got no response
	unauthorized bool   // a request was answered 401
	expired      bool   // a request with the session id was answered 404
	challenge    string // the WWW-Authenticate of the last 401

	closeOnce sync.Once

	eachMu   sync.RWMutex                                        // held to read while each runs, to write while Each ends
	each     func(msg jsonrpc.Message, err error, detach func()) // Each's function, while Each runs
	eachDone bool                                                // Each has returned
}

// item is one message for Read: a message, or a *jsonrpc.DecodeError.
type item struct {
	msg jsonrpc.Message
	err error
}

var _ transport.Conn = (*Conn)(nil)

// New returns a Conn to the MCP endpoint at rawURL (http or https). No
// request is sent before the first Write.
func New(rawURL string, opts Options) (*Conn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("httpconn: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("httpconn: %q is not an http or https URL", rawURL)
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if opts.CloseTimeout <= 0 {
		opts.CloseTimeout = DefaultCloseTimeout
	}
	c := &Conn{url: u.String(), opts: opts, client: opts.Client, inbox: make(chan item, inboxSize),
		broken: make(chan struct{}), annotations: map[string][]header.Annotation{}, invalid: map[string]error{}, inflight: map[string]*call{}}
	if c.client == nil {
		c.own = http.DefaultTransport.(*http.Transport).Clone()
		c.client = &http.Client{Transport: c.own, CheckRedirect: keepMethod}
	}
	if opts.Wrap != nil {
		cl := *c.client
		if cl.Transport == nil {
			cl.Transport = http.DefaultTransport
		}
		cl.Transport = opts.Wrap(cl.Transport)
		c.client = &cl
	}
	c.life, c.stop = context.WithCancel(context.Background())
	return c, nil
}

// keepMethod follows the redirects that keep the method and the body (307
// and 308), a few of them; any other is the answer.
func keepMethod(req *http.Request, via []*http.Request) error {
	if s := req.Response.StatusCode; (s == http.StatusTemporaryRedirect || s == http.StatusPermanentRedirect) && len(via) <= maxRedirects {
		return nil
	}
	return http.ErrUseLastResponse
}

// URL returns the endpoint.
func (c *Conn) URL() string { return c.url }

// SessionID returns the Mcp-Session-Id the server gave with its initialize
// response, "" when none (yet). It is safe for concurrent use, as are
// Problems and LastFailure.
func (c *Conn) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

// Read returns the next message the server sent, on any response stream,
// in the order each stream carried them. What could not be decoded, or a
// request's answer that was no JSON-RPC response (an HTTP error, a wrong
// content type, a stream that ended early), is a *jsonrpc.DecodeError,
// carrying the request's id when it is that request's. After a request
// could not be sent or its stream broke, Read returns that error once the
// messages already read are taken; after Close, transport.ErrClosed.
func (c *Conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if c.isClosed() {
		return nil, transport.ErrClosed
	}
	select {
	case it := <-c.inbox:
		return it.msg, it.err
	case <-c.broken:
		select {
		case it := <-c.inbox:
			return it.msg, it.err
		default:
			return nil, c.brokenErr
		}
	case <-c.life.Done():
		return nil, transport.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver hands one message (or decode error) to Read; it reports false
// when the Conn closed first.
func (c *Conn) deliver(msg jsonrpc.Message, err error) bool {
	if handed, done := c.handTo(msg, err); handed || done {
		return handed
	}
	select {
	case c.inbox <- item{msg, err}:
		return true
	case <-c.life.Done():
		return false
	}
}

// fail records that the connection broke: Read returns err, Write fails.
func (c *Conn) fail(err error) {
	c.breakOnce.Do(func() {
		c.brokenErr = &lostError{err}
		close(c.broken)
	})
}

// lostError is the error of a Conn that broke: no request can be sent or
// answered any more. Lost tells a caller that classifies errors (the
// client's session) that the connection is gone, whichever operation met
// it first.
type lostError struct{ err error }

func (e *lostError) Error() string { return e.err.Error() }
func (e *lostError) Unwrap() error { return e.err }

// Lost reports that the connection is gone.
func (e *lostError) Lost() bool { return true }

// enter counts one more goroutine or request in flight, unless the Conn
// is closed or broken.
func (c *Conn) enter() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return transport.ErrClosed
	}
	select {
	case <-c.broken:
		return c.brokenErr
	default:
	}
	c.wg.Add(1)
	return nil
}

// isClosed reports whether Close was called.
func (c *Conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// problem records something the server got wrong in an HTTP exchange
// outside any message: the first maxProblems, then a count.
func (c *Conn) problem(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.problems) < maxProblems {
		c.problems = append(c.problems, fmt.Sprintf(format, args...))
	} else {
		c.more++
	}
}

// Problems returns what the server got wrong in its HTTP exchanges outside
// any message, in order: a notification or response POST answered
// otherwise than 202, a GET stream refused otherwise than 405, an SSE event
// of a type MCP does not use. What is wrong in or instead of a message
// reaches Read as a *jsonrpc.DecodeError instead.
func (c *Conn) Problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]string(nil), c.problems...)
	if c.more > 0 {
		out = append(out, fmt.Sprintf("%d more HTTP problem(s)", c.more))
	}
	return out
}

// Close cancels every request in flight and the GET stream, waits for
// their goroutines, ends a legacy session with DELETE (bounded by
// Options.CloseTimeout; any answer will do) and closes the idle
// connections of a client of the Conn's own. It is idempotent and returns
// the error that broke the connection, if one did.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		sid := c.sessionID
		c.mu.Unlock()
		c.stop()
		c.wg.Wait()
		if sid != "" {
			c.endSession()
		}
		if c.own != nil {
			c.own.CloseIdleConnections()
		}
	})
	select {
	case <-c.broken:
		if !errors.Is(c.brokenErr, context.Canceled) {
			return c.brokenErr
		}
	default:
	}
	return nil
}
