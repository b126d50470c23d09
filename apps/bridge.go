package apps

import (
	"context"
	"errors"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// MaxViewMessageBytes bounds one message a [Bridge] takes from a view.
const MaxViewMessageBytes = 4 << 20

// The postMessage methods a Bridge serves or sends.
const (
	methodInitialize  = "ui/initialize"
	methodInitialized = "ui/notifications/initialized"
	methodToolInput   = "ui/notifications/tool-input"
	methodToolResult  = "ui/notifications/tool-result"
)

// BridgeOptions configure a [Bridge].
type BridgeOptions struct {
	// Client is connected to the view's own server, the one that listed
	// Tool; required. The view's tools/call and resources/read go to it,
	// and to no other server.
	Client *client.Client
	// Tool is the tool whose call the view renders; required.
	Tool *protocol.Tool
	// Arguments are the call's arguments, sent to the view as
	// ui/notifications/tool-input; nil sends none.
	Arguments json.RawMessage
	// Result is the call's result when it is known before the view
	// starts; otherwise give it to [Bridge.SetResult] when it is.
	Result *protocol.CallToolResult
	// HostInfo names the host to the view.
	HostInfo protocol.Implementation
	// HostContext are members of the hostContext ui/initialize answers
	// with (theme, locale, displayMode, containerDimensions, ...) beside
	// toolInfo, which the bridge fills in.
	HostContext protocol.Object
	// Handle answers the view's other requests, those the host serves
	// itself (ui/open-link, ui/message, ui/update-model-context,
	// ui/request-display-mode, ...): the result, or an error (a
	// *jsonrpc.Error is sent as it is). Nil answers them -32601.
	Handle func(ctx context.Context, method string, params json.RawMessage) (any, error)
	// Notify hears the view's notifications other than
	// ui/notifications/initialized (ui/notifications/size-changed,
	// ui/notifications/request-teardown, notifications/message, ...).
	Notify func(method string, params json.RawMessage)
}

// Bridge is a host's end of one view's postMessage channel: it speaks the
// extension's JSON-RPC with the view and relays what the view may ask of
// its server. How messages travel (postMessage in a browser, a web view's
// bridge in a desktop host, a relay over HTTP) is the host's: it gives
// each message from the view to [Bridge.Receive] and posts what that
// returns back to the view, in order.
//
// The bridge answers ui/initialize (this package's [ProtocolVersion] and
// the host's context, with toolInfo naming the tool), and once the view
// says ui/notifications/initialized, sends the call's tool-input and, when
// known, its tool-result, never before. It relays tools/call to the
// view's own server only for tools visible to the app: a tool the server
// does not list, or whose _meta.ui.visibility leaves out "app", is
// refused with -32602 and never reaches the server, as the extension
// asks of hosts. resources/read is relayed; ping is answered.
//
// A Bridge is safe for concurrent use: a host may receive the next
// message while a relayed call runs.
type Bridge struct {
	o BridgeOptions

	mu          sync.Mutex
	initialized bool
	resultSent  bool
}

// NewBridge returns a bridge for one view.
func NewBridge(o BridgeOptions) *Bridge {
	return &Bridge{o: o}
}

// Receive handles one message from the view (a JSON-RPC request or
// notification, or a response to a request the host sent, which is
// dropped) and returns the messages to post to it: a request's response,
// and what the view's state lets the bridge send. A message that is not
// JSON-RPC is answered with the JSON-RPC error for it when it has an id,
// or dropped. ctx bounds the relayed calls.
func (b *Bridge) Receive(ctx context.Context, data []byte) []json.RawMessage {
	if len(data) > MaxViewMessageBytes {
		return b.encode(&jsonrpc.Response{Error: jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"apps: a view's message of %d bytes is over %d", len(data), MaxViewMessageBytes)})
	}
	msg, err := jsonrpc.Decode(data)
	if err != nil {
		var de *jsonrpc.DecodeError
		if errors.As(err, &de) && de.ID.IsValid() {
			return b.encode(de.Response())
		}
		return nil
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		result, err := b.serve(ctx, m.Method, m.Params)
		if err != nil {
			return b.encode(&jsonrpc.Response{ID: m.ID, Error: wireError(err)})
		}
		raw, err := json.Marshal(result)
		if err != nil {
			return b.encode(&jsonrpc.Response{ID: m.ID, Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
				"apps: encoding the result of %s: %s", clip.Quote(m.Method), clip.String(err.Error()))})
		}
		return b.encode(&jsonrpc.Response{ID: m.ID, Result: raw})
	case *jsonrpc.Notification:
		if m.Method == methodInitialized {
			return b.started()
		}
		if b.o.Notify != nil {
			b.o.Notify(m.Method, m.Params)
		}
	case jsonrpc.Batch:
		return b.encode(&jsonrpc.Response{Error: jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "apps: a view sends no batches")})
	}
	return nil
}

// SetResult gives the bridge the call's result, when it came after the
// bridge was made, and returns what to post to the view now: its
// tool-result, or nothing until the view has started (it is sent then).
// A result is sent once.
func (b *Bridge) SetResult(r *protocol.CallToolResult) []json.RawMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.o.Result != nil {
		return nil
	}
	b.o.Result = r
	if !b.initialized {
		return nil
	}
	b.resultSent = true
	return b.encode(notification(methodToolResult, forView(r)))
}

// started is the view's ui/notifications/initialized: the tool's input
// and result go out, once.
func (b *Bridge) started() []json.RawMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.initialized {
		return nil
	}
	b.initialized = true
	args := b.o.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	out := b.encode(notification(methodToolInput, map[string]json.RawMessage{"arguments": args}))
	if b.o.Result != nil {
		b.resultSent = true
		out = append(out, b.encode(notification(methodToolResult, forView(b.o.Result)))...)
	}
	return out
}

// serve answers a request of the view.
func (b *Bridge) serve(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case methodInitialize:
		return b.initialize(params)
	case protocol.MethodPing:
		return struct{}{}, nil
	case protocol.MethodCallTool:
		return b.callTool(ctx, params)
	case protocol.MethodReadResource:
		var p struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(params, &p); err != nil || p.URI == "" {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "apps: resources/read needs a uri")
		}
		r, err := b.o.Client.ReadResource(ctx, p.URI)
		if err != nil {
			return nil, err
		}
		r.Envelope, r.CacheHints = protocol.Envelope{Meta: r.Meta}, protocol.CacheHints{}
		return r, nil
	}
	if b.o.Handle != nil {
		return b.o.Handle(ctx, method, params)
	}
	return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "apps: the host serves no %s", clip.Quote(method))
}

// initialize answers ui/initialize.
func (b *Bridge) initialize(params json.RawMessage) (any, error) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "apps: ui/initialize: %s", clip.String(err.Error()))
	}
	hostContext := protocol.Object{}
	for k, v := range b.o.HostContext {
		hostContext[k] = v
	}
	info, err := json.Marshal(map[string]any{"tool": b.o.Tool})
	if err != nil {
		return nil, err
	}
	hostContext["toolInfo"] = info
	empty := json.RawMessage("{}")
	return map[string]any{
		"protocolVersion": ProtocolVersion,
		"hostInfo":        b.o.HostInfo,
		"hostCapabilities": map[string]any{
			"serverTools": empty, "serverResources": empty, "logging": empty,
		},
		"hostContext": hostContext,
	}, nil
}

// callTool relays a view's tools/call, if the tool is the app's to call.
func (b *Bridge) callTool(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Name == "" {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "apps: tools/call needs a tool name")
	}
	desc, err := b.descriptor(ctx, p.Name)
	if err != nil {
		return nil, err
	}
	meta, err := ToolMetaOf(desc)
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "%s", err.Error())
	}
	if !meta.Visible(VisibleToApp) {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams,
			"apps: tool %s is not visible to apps (its _meta.ui.visibility leaves out %q)", clip.Quote(p.Name), VisibleToApp)
	}
	var args any
	if len(p.Arguments) > 0 {
		args = p.Arguments
	}
	r, err := b.o.Client.CallTool(ctx, p.Name, args)
	if err != nil {
		return nil, err
	}
	return forView(r), nil
}

// descriptor finds the tool name among the server's tools.
func (b *Bridge) descriptor(ctx context.Context, name string) (*protocol.Tool, error) {
	for t, err := range b.o.Client.Tools(ctx) {
		if err != nil {
			return nil, err
		}
		if t.Name == name {
			return t, nil
		}
	}
	return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "apps: the view's server lists no tool %s", clip.Quote(name))
}

// forView is r as the view's protocol carries it: without 2026-07-28's
// resultType, which the view's revision does not know.
func forView(r *protocol.CallToolResult) *protocol.CallToolResult {
	c := *r
	c.Envelope = protocol.Envelope{Meta: r.Meta}
	return &c
}

// notification is a notification to the view.
func notification(method string, params any) *jsonrpc.Notification {
	raw, err := json.Marshal(params)
	if err != nil {
		raw = json.RawMessage("{}")
	}
	return &jsonrpc.Notification{Method: method, Params: raw}
}

// encode returns m as the one message to post.
func (b *Bridge) encode(m jsonrpc.Message) []json.RawMessage {
	raw, err := jsonrpc.Marshal(m)
	if err != nil {
		return nil
	}
	return []json.RawMessage{raw}
}

// wireError is err as the view gets it: a *jsonrpc.Error as it is, any
// other (the connection to the server failing, a gate refusing what the
// server sent) -32603 with its text.
func wireError(err error) *jsonrpc.Error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	return jsonrpc.NewError(jsonrpc.CodeInternalError, "%s", clip.String(err.Error()))
}
