// Package apps is the MCP Apps extension (io.modelcontextprotocol/ui) on
// both sides: a server serves interactive views, HTML documents at ui://
// URIs that a host renders for a tool's results in a sandboxed iframe,
// and a host loads them and speaks the extension's postMessage protocol
// with them.
//
// The authority is the extension's own package, npm
// @modelcontextprotocol/ext-apps (its types, its JSON Schema and its
// stable specification, 2026-01-26); where they leave room, the choices
// are written down here.
//
// # Serving an app
//
// A [Resource] is a view: a ui:// URI, the HTML, and its _meta.ui (a
// [ResourceMeta]: the origins its CSP needs, the browser features it asks
// for, a dedicated domain, a border). [Add] registers it with an
// mcp.Server; it is read as one text item of type [MIMEType], and its
// _meta.ui is on both the resources/list entry and the read's contents.
// [Resource.Link] links a tool to it (_meta.ui.resourceUri, and the flat
// "ui/resourceUri" key older hosts read) and says who may call the tool:
// the model, the view, or both (the default). A host that renders apps
// shows the view with the tool's result; one that does not sees a plain
// tool, so the tool's content must still say what the view shows.
//
// The extension defines no server capability: a server advertises
// nothing, and learns from the client's declared extensions whether it
// renders apps ([ClientSupports]), in either era (hosts declare it in
// capabilities.extensions in initialize, and in 2026-07-28's per-request
// capabilities). A tool visible to the view alone is still listed to
// every client (a host filters what its model sees), but a call of it
// from a client that declared no support for apps, which has no view to
// make it, gets an isError result.
//
// # Hosting an app
//
// A host declares the extension ([Declare] in client.Options.Extensions),
// reads a tool's link with [ToolMetaOf] (which also says whether its
// model may see the tool), and loads the view with [Load], which checks
// it: one contents item of the right type, a document, and a CSP of
// origins only. [CSP.Policy] is the Content-Security-Policy to serve the
// view with, and [Permissions.Allow] the iframe's allow attribute. A web
// host serves the view from an origin of its own, a sandbox, with that
// policy as a header; the extension's sandbox proxy relays the messages.
//
// A [Bridge] is the host's end of one view's channel, whatever carries
// its messages: it answers ui/initialize, sends the call's input and
// result once the view has started, relays tools/call and resources/read
// to the view's own server, and refuses a tools/call of a tool whose
// visibility leaves out the app, or that the server does not list, with
// -32602 before it reaches the server.
//
// Choices where the extension leaves room: connect-src names the declared
// origins only, without 'self' (a view's own origin is its host's
// sandbox); a CSP entry must be an origin (http, https, ws or wss, a host
// with an optional "*." and port), and anything else is refused when a
// resource is added and when a host loads it, never passed on into a
// policy; a view whose _meta.ui is absent from its contents takes the
// resources/list entry's; results relayed to a view lose 2026-07-28's
// resultType, which the view's protocol does not carry.
package apps
