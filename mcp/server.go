package mcp

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/internal/ratelimit"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// Implementation describes the server to clients (serverInfo): Name and
// Version always; Title from 2025-06-18 on; Description, WebsiteURL and
// Icons from 2025-11-25 on. It is the wire type of package protocol.
type Implementation = protocol.Implementation

// Default limits of Options.
const (
	// defaultMaxQueuedBytes is four times the default message cap of
	// package transport: 64 MiB.
	defaultMaxQueuedBytes = 64 << 20
	// defaultMaxListenStreams allows a client a few listen streams; one is
	// what a client needs.
	defaultMaxListenStreams = 16
	// defaultMaxListenStreamsPerCaller bounds the listen streams of one
	// caller on an endpoint that callers share (the stateless HTTP
	// endpoint): enough for every client behind one address to hold a few.
	defaultMaxListenStreamsPerCaller = 256
	// defaultMaxListenStreamsTotal bounds the listen streams of all callers
	// together on an endpoint that callers share: at some tens of kilobytes
	// each (a connection, its buffers and two goroutines), about a hundred
	// megabytes.
	defaultMaxListenStreamsTotal = 4096
	// defaultMaxTasksPerCaller bounds the task records one caller holds in
	// the task store: a tenth of the default memory store.
	defaultMaxTasksPerCaller = 1000
)

// CodeQuotaExceeded is the JSON-RPC error code of a request refused
// because its caller holds all it may of something (listen streams on a
// shared endpoint, tasks, legacy HTTP sessions), while other callers are
// still served: the caller should end some before it asks for more. Its
// data names the limit: {"reason": "quota", "limit": option name, "max":
// the bound}. It lies outside the range JSON-RPC and MCP reserve
// (-32768 to -32000). Over HTTP it comes with status 429.
const CodeQuotaExceeded = -31000

// Options configures a Server. The zero value is ready to use.
type Options struct {
	// Instructions is optional text sent in the initialize result.
	Instructions string
	// PageSize is the number of tools per tools/list page (default 50).
	PageSize int
	// MaxConcurrentCalls bounds handlers running at once (default 64).
	MaxConcurrentCalls int
	// MaxQueuedCalls bounds requests waiting for a handler slot; beyond it
	// a request is rejected (default 1024).
	MaxQueuedCalls int
	// MaxQueuedBytes bounds the bytes of the requests waiting for a handler
	// slot (each holds its whole message until it runs); beyond it a
	// request is rejected as overloaded, except that one request of any
	// size may always wait (default 64 MiB, four times the message cap of
	// package transport).
	MaxQueuedBytes int
	// MaxListenStreams bounds the subscriptions/listen streams open at once
	// on one connection (stdio) or legacy session; one more is rejected as
	// overloaded (default 16). An endpoint that
	// callers share (the stateless HTTP endpoint) is bounded per caller and
	// in total instead.
	MaxListenStreams int
	// MaxListenStreamsPerCaller bounds the listen streams one caller (its
	// principal, else its remote address: see auth.WithRemoteAddr) holds
	// open at once on an endpoint that callers share (default 256); one more is refused with
	// CodeQuotaExceeded, while other callers still open theirs. A caller
	// the transport names neither way (an Endpoint handed no
	// auth.WithRemoteAddr) has no share of its own: only
	// MaxListenStreamsTotal bounds it.
	MaxListenStreamsPerCaller int
	// MaxListenStreamsTotal bounds the listen streams of all callers
	// together on an endpoint that callers share (default 4096); one more is refused as overloaded
	// (Overload.Limit "MaxListenStreamsTotal").
	MaxListenStreamsTotal int
	// MaxConcurrentCallsPerCaller bounds the calls one caller (its
	// principal, else its remote address: see auth.WithRemoteAddr) runs at
	// once on an endpoint that callers share, the stateless HTTP endpoint
	// (default three quarters of MaxConcurrentCalls, at least 1), so that
	// one caller's slow calls cannot take every slot: its further calls
	// wait their turn (they count against MaxQueuedCalls and
	// MaxQueuedBytes), and a freed slot goes first to the waiting caller
	// that runs the fewest calls. A caller the transport does not name
	// has no share of its own.
	MaxConcurrentCallsPerCaller int
	// ShutdownGrace is how long in-flight calls may run after reading
	// stops before they are cancelled (default 1s; hosts kill a server
	// about 2s after closing its stdin).
	ShutdownGrace time.Duration
	// Logger receives the library's logs (default slog.Default(), which
	// writes to stderr).
	Logger *slog.Logger
	// HandlerErrorLevel is the level at which a handler's plain error (one
	// that becomes an isError result for the model) is logged, with the
	// tool's name and the request id. The default is slog.LevelInfo (the
	// zero value); a level above slog.LevelError silences them under the
	// default handler.
	HandlerErrorLevel slog.Level
	// Middleware wraps the handling of every request and notification
	// from a client, outermost first (see Middleware; package middleware
	// has stock ones). None, the default, costs a request nothing.
	Middleware []Middleware
	// ToolMiddleware wraps every tool's handler, outermost first. It runs
	// after the arguments were validated, with the tool at hand.
	ToolMiddleware []tool.Middleware
	// LogRate bounds the notifications/message forwarded to one client, per
	// second (default 100, with bursts of twice that).
	LogRate int
	// CacheHints sets ttlMs and cacheScope per cacheable method in the
	// modern era (server/discover, tools/list, prompts/list,
	// resources/list, resources/templates/list, resources/read); methods
	// without an entry get one minute, private. NewServer logs a warning
	// for a key that is not one of these.
	CacheHints map[string]CacheHint
	// Extensions are the extensions the server serves besides the built-in
	// tasks extension (see Extension). NewServer panics when one is
	// malformed or clashes with a method or identifier defined already.
	Extensions []Extension
	// DynamicTools declares the tools capability even while no tool is
	// registered, for servers that add tools at run time.
	DynamicTools bool
	// DynamicResources declares the resources capability even while no
	// resource or template is registered.
	DynamicResources bool
	// DynamicPrompts declares the prompts capability even while no prompt
	// is registered.
	DynamicPrompts bool
	// Caller is who every request on stdio acts for: the identity the
	// server was started with (a user name from the environment, say), as
	// completion providers and tool handlers see it (RequestFrom).
	// Nil means no caller is known.
	Caller *auth.Principal
	// ClientRequestTimeout bounds the wait for the client's answer to a
	// request the server sent it (legacy elicitation, sampling, roots;
	// default five minutes: an elicitation waits for a person). Past it the handler gets
	// ErrClientTimeout and the client notifications/cancelled.
	ClientRequestTimeout time.Duration
	// CallTimeout bounds how long a request may run (waiting for a
	// worker included): past it the client gets -32603 with data.reason
	// "timeout" and the handler's context ends with ErrCallTimeout. Zero
	// means no bound. Cheap methods answered at once and
	// subscriptions/listen streams are not bounded by it.
	CallTimeout time.Duration
	// StateKey is the secret that seals what the server hands to clients
	// and must get back unchanged: list cursors and the 2026-07-28
	// requestState. Servers behind one endpoint (a load balancer) need the
	// same key to accept each other's state. It is at least
	// MinStateKeyLen (32) bytes: 32 random bytes, or a longer passphrase.
	// Empty (with StateKeys empty too) means a random key per process,
	// which no other process accepts. StateKey is the key set
	// []StateKey{{Secret: StateKey}} (the empty ID); set StateKey or
	// StateKeys, not both.
	StateKey []byte
	// StateKeys is a key set, for rotating keys without breaking the
	// cursors and requestState in flight: the first key seals, every key
	// opens, and every sealed value names its key by ID (see StateKey, the
	// type). To rotate from key A to key B on every instance: deploy
	// {A, B} (B accepted), then {B, A} (B seals) once every instance holds
	// B, then {B} once what A sealed is out of use (a requestState lives
	// Options.InputStateTTL, a cursor as long as its client pages). Moving
	// from Options.StateKey S to a set, list {Secret: S} with the empty ID.
	//
	// NewServer panics when a secret is shorter than MinStateKeyLen, an
	// ID longer than maxStateKeyIDLen or given twice, or both StateKey and
	// StateKeys are set; Options.CheckStateKeys reports the same as an
	// error.
	StateKeys []StateKey
	// InputStateTTL is how long a requestState stays valid (default 15
	// minutes: a person answers an elicitation in between); past it a
	// retry gets -32602.
	InputStateTTL time.Duration
	// CompletionRate bounds the completion/complete requests of one caller
	// (by Caller.Subject), per second, with bursts of twice that (default
	// 20). Beyond it a request gets -32603 with data.reason
	// "rate_limited".
	CompletionRate int
	// Observer, when set, is told of every request as it starts and as it
	// ends, and of every overload (see Observer; module otelmcp traces and
	// measures with it). Nil, the default, costs a request nothing.
	Observer Observer
	// ToolCallRate bounds the tools/call requests of one caller (by
	// Caller.Subject, or the HTTP principal's; anonymous callers share one
	// budget), per second, with bursts of twice that. Beyond it a call
	// gets -32603 with data.reason "rate_limited" before its tool runs.
	// Zero (the default) means no bound: MaxConcurrentCalls already
	// bounds what one connection runs at once. It is a Middleware, run
	// before those of Options.Middleware; middleware.RateLimit bounds any
	// method the same way.
	ToolCallRate int
	// Broker joins the instances of a deployment (servers behind one load
	// balancer): the server publishes to it every list change and
	// resource update it raises, and delivers those of the other
	// instances to its own listen streams and legacy subscribers exactly
	// as its own (see package fanout; package redisbroker, a module of its
	// own, is one over Redis). Instances are taken to be identical: a list
	// change from another instance is forwarded to clients as it is (they
	// list again) and changes nothing in this server's registries; list
	// changes made before the server serves any connection (start-up
	// registration, the same on every instance) are not published. Nil
	// keeps every event within this server. Close the server when done
	// with it, to unsubscribe.
	Broker fanout.Broker
	// TaskStore keeps the records of tasks (the tasks extension, see
	// AddTaskTool). Nil is an in-memory store of task.DefaultMaxTasks
	// records; instances behind one endpoint need one store they share
	// (the redisbroker module has one) and one StateKey.
	TaskStore task.Store
	// MaxTasksPerCaller bounds the task records one caller (its
	// principal's subject, else its remote address) holds in the task
	// store, finished ones included until they expire (default 1000, a
	// tenth of the default memory store; negative: no bound). One more task is
	// refused with CodeQuotaExceeded, while other callers go on creating
	// theirs. The store counts them (task.Store's Create), so the bound
	// holds across the instances that share one. A caller the transport
	// names neither way (stdio's one client) has no quota: the store's
	// bound is its bound.
	MaxTasksPerCaller int
	// TaskTTL is how long a task is kept after its last update, sent as
	// ttlMs (default one hour; negative: no TTL, ttlMs null, kept
	// until the store's bound evicts it).
	TaskTTL time.Duration
	// TaskPollInterval is the pollIntervalMs hint of every task (default
	// 500 milliseconds).
	TaskPollInterval time.Duration
	// TaskGrace is how long a call that may become a task runs before
	// the task is created (default 50 milliseconds; negative: none). A
	// call of an optional-task tool that completes within it is answered
	// with its result; one that finishes or asks for input within it
	// otherwise starts as a task already in that state.
	TaskGrace time.Duration
}

func (o *Options) withDefaults() Options {
	c := *o
	if c.PageSize <= 0 {
		c.PageSize = 50
	}
	if c.MaxConcurrentCalls <= 0 {
		c.MaxConcurrentCalls = 64
	}
	if c.MaxQueuedCalls <= 0 {
		c.MaxQueuedCalls = 1024
	}
	if c.MaxQueuedBytes <= 0 {
		c.MaxQueuedBytes = defaultMaxQueuedBytes
	}
	if c.MaxListenStreams <= 0 {
		c.MaxListenStreams = defaultMaxListenStreams
	}
	if c.MaxListenStreamsPerCaller <= 0 {
		c.MaxListenStreamsPerCaller = defaultMaxListenStreamsPerCaller
	}
	if c.MaxListenStreamsTotal <= 0 {
		c.MaxListenStreamsTotal = defaultMaxListenStreamsTotal
	}
	if c.MaxConcurrentCallsPerCaller <= 0 {
		c.MaxConcurrentCallsPerCaller = max(1, c.MaxConcurrentCalls*3/4)
	}
	if c.MaxTasksPerCaller == 0 {
		c.MaxTasksPerCaller = defaultMaxTasksPerCaller
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.LogRate <= 0 {
		c.LogRate = 100
	}
	if c.ClientRequestTimeout <= 0 {
		c.ClientRequestTimeout = defaultClientRequestTimeout
	}
	if c.CompletionRate <= 0 {
		c.CompletionRate = 20
	}
	if c.InputStateTTL <= 0 {
		c.InputStateTTL = defaultInputStateTTL
	}
	c.taskDefaults()
	return c
}

// Server is an MCP server: its identity, its tools and its limits. One
// Server can serve many connections; its methods are safe for concurrent
// use.
type Server struct {
	info Implementation
	opts Options
	log  *slog.Logger

	mu        sync.RWMutex // guards the registries
	tools     registry[*entry]
	resources registry[*resourceEntry]
	templates registry[*templateEntry]
	prompts   registry[*promptEntry]
	// completionRate is Options.CompletionRate per caller.
	completionRate *ratelimit.PerKey

	keys       *keyring                // seal cursors and requestState
	modernInfo protocol.Implementation // serverInfo as 2026-07-28 carries it
	modernMeta json.RawMessage         // {"io.modelcontextprotocol/serverInfo": ...}

	sessMu   sync.Mutex
	sessions map[*session]struct{}

	urlMu      sync.Mutex
	urlElicits map[string]*session // legacy URL elicitations by id

	relay *relay // to Options.Broker; nil without one

	tasks *taskRuntime // the tasks extension (task_run.go)
	ext   extensions   // the extensions of Options (extension.go)
	chain Handler      // Options.Middleware around serve; nil without any

}

// entry is a registered tool: its compiled contract (which runs the
// handler wrapped in the middleware), and what its descriptor needs on the
// wire, computed once.
type entry struct {
	contract *contract.Contract
	tool     *tool.Tool // the contract's copy of the descriptor
	// objectOutput caches whether the output schema's root is an object.
	objectOutput bool
	// legacyOutput is the output schema as 2025-era clients get it.
	legacyOutput json.RawMessage
	// meta is the descriptor's _meta, encoded.
	meta protocol.Meta
	// task is how the tool takes part in the tasks extension.
	task TaskToolOptions
}

// NewServer returns a server with the given identity. opts may be nil.
// An empty info.Name becomes the program's file name, and an empty
// info.Version mcpwire's own version (mcpwire.Version), so that serverInfo
// always says something. It panics on state keys that cannot seal safely
// (see Options.StateKeys; Options.CheckStateKeys reports it as an error).
func NewServer(info Implementation, opts *Options) *Server {
	if opts == nil {
		opts = &Options{}
	}
	if info.Name == "" {
		info.Name = programName()
	}
	if info.Version == "" {
		info.Version = mcpwire.Version
	}
	s := &Server{info: info, opts: opts.withDefaults(),
		tools:     newRegistry(func(e *entry) string { return e.tool.Name }),
		resources: newRegistry(func(e *resourceEntry) string { return e.res.URI }),
		templates: newRegistry(func(e *templateEntry) string { return e.tmpl.URITemplate }),
		prompts:   newRegistry(func(e *promptEntry) string { return e.p.Name }),
	}
	s.tasks = newTaskRuntime(s)
	// The probe guard is always outermost: a permission probe must never
	// run a tool that cannot answer it, whatever else is installed.
	s.opts.ToolMiddleware = append([]tool.Middleware{probe.Guard()}, s.opts.ToolMiddleware...)
	s.completionRate = ratelimit.NewPerKey(s.opts.CompletionRate)
	if s.opts.ToolCallRate > 0 {
		s.opts.Middleware = append([]Middleware{toolCallRate(s.opts.ToolCallRate)}, s.opts.Middleware...)
	}
	s.chain = chain(s.opts.Middleware)
	s.log = s.opts.Logger
	if err := s.addExtensions(s.opts.Extensions); err != nil {
		panic(err) // a server whose extensions do not fit must not start
	}
	for method := range s.opts.CacheHints {
		if m, _ := s.method(method); !m.cacheable {
			s.log.Warn("mcp: Options.CacheHints names a method whose results carry no cache hints; it is ignored", "method", method)
		}
	}
	s.sessions = map[*session]struct{}{}
	keys, err := newKeyring(s.opts.StateKey, s.opts.StateKeys)
	if err != nil {
		panic(err) // a deployment with broken keys must not start; CheckStateKeys reports it first
	}
	s.keys = keys
	s.modernInfo = s.serverInfo(protocol.Revision20260728)
	s.modernMeta, _ = json.Marshal(protocol.ResultMeta{ServerInfo: &s.modernInfo})
	s.startRelay()
	for _, e := range s.ext.list {
		if e.Attach == nil {
			continue
		}
		if err := e.Attach(s); err != nil {
			panic(fmt.Errorf("mcp: extension %q: %w", e.ID, err))
		}
	}
	return s
}

// AddTool registers a tool, typically one that tool.New built:
//
//	srv.MustAddTool(tool.New("add", "Adds two integers.", add))
//
// It is the one place a tool can fail, before any client sees it: the
// problem tool.New found (t.Err), a name that is not
// ^[A-Za-z0-9_.-]{1,128}$, a missing handler, a schema that does not
// compile or breaks a rule (an input schema whose root is not
// {"type":"object"}, x-mcp-header annotations that package header
// refuses), a _meta that is not JSON, or a name already taken. The error
// names the tool and the rule, with the field path where there is one, and
// wraps ErrInvalidTool or ErrDuplicateTool; the other tools still load.
//
// The server keeps its own copy of t, with the schemas compiled once, so
// changing t afterwards changes nothing. Every call of the tool then runs
// within that contract: arguments that break the input schema never reach
// the handler (the client gets an isError result listing each violation
// with its JSON pointer and rule), and a result that breaks the tool's
// own contract is never sent (an isError result names the violations, and
// the server logs them).
func (s *Server) AddTool(t tool.Tool) error { return s.addTool(t, TaskToolOptions{}) }

func (s *Server) addTool(t tool.Tool, to TaskToolOptions) error {
	scopes, err := checkScopes(fmt.Sprintf("tool %q", t.Name), t.Scopes) // see scopes.go
	if err != nil {
		return fmt.Errorf("mcp: AddTool: %w: %w", ErrInvalidTool, err)
	}
	t.Scopes = scopes
	h := t.Handler
	if h != nil {
		for i := len(s.opts.ToolMiddleware) - 1; i >= 0; i-- {
			h = s.opts.ToolMiddleware[i](t, h)
		}
	}
	c, err := contract.Compile(t, h)
	if err != nil {
		return fmt.Errorf("mcp: AddTool: %w: %w", ErrInvalidTool, err)
	}
	meta, err := protocol.MetaOf(t.Meta)
	if err != nil {
		return fmt.Errorf("mcp: AddTool: %w: tool %q: %w", ErrInvalidTool, t.Name, err)
	}
	ct := c.Tool()
	e := &entry{contract: c, tool: ct, objectOutput: isObjectSchema(ct.OutputSchema),
		legacyOutput: legacyOutputSchema(ct.OutputSchema), meta: meta, task: to}
	return toolList.add(s, "AddTool", e, ErrDuplicateTool)
}

// Errors the registration methods return, matched with errors.Is; the
// message says what was wrong (for an invalid tool, the rule and the field
// path).
var (
	// ErrInvalidTool: the descriptor or its schemas are invalid.
	ErrInvalidTool = errors.New("invalid tool")
	// ErrDuplicateTool: a tool with the same name is already registered
	// (a name is never silently replaced; RemoveTool first).
	ErrDuplicateTool = errors.New("a tool with this name is already registered")
	// ErrInvalidResource: a resource or template descriptor is invalid.
	ErrInvalidResource = errors.New("invalid resource")
	// ErrDuplicateResource: a resource with the same URI, or a template
	// with the same URI template, is already registered.
	ErrDuplicateResource = errors.New("a resource with this URI is already registered")
	// ErrInvalidPrompt: a prompt descriptor is invalid.
	ErrInvalidPrompt = errors.New("invalid prompt")
	// ErrDuplicatePrompt: a prompt with the same name is already
	// registered.
	ErrDuplicatePrompt = errors.New("a prompt with this name is already registered")
)

// MustAddTool is AddTool that panics on error, for registration at start-up.
func (s *Server) MustAddTool(t tool.Tool) { must(s.AddTool(t)) }

// RemoveTool unregisters a tool by name and reports whether it was there.
// The order of the remaining tools is kept.
func (s *Server) RemoveTool(name string) bool { return toolList.remove(s, name) }

// programName is the base name of the running program, without a ".exe"
// suffix; "mcp-server" when there is none.
func programName() string {
	if len(os.Args) == 0 || os.Args[0] == "" {
		return "mcp-server"
	}
	return strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
}
