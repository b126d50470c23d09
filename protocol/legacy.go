package protocol

import json "github.com/goccy/go-json"

// Methods that only the legacy revisions (2024-11-05 to 2025-11-25) define.
const (
	MethodInitialize  = "initialize"
	MethodPing        = "ping"
	MethodSetLevel    = "logging/setLevel"
	NotificationReady = "notifications/initialized"

	// NotificationRootsListChanged: the client's roots changed.
	NotificationRootsListChanged = "notifications/roots/list_changed"
	// NotificationElicitationComplete: a URL elicitation's out-of-band
	// interaction is done (params {elicitationId}).
	NotificationElicitationComplete = "notifications/elicitation/complete"
)

// InitializeRequestParams are the params of initialize, the legacy
// handshake.
type InitializeRequestParams struct {
	// ProtocolVersion is the revision the client asks for; required.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are the client's, raw: they hold for the whole session.
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// ClientInfo names the client, raw.
	ClientInfo json.RawMessage `json:"clientInfo,omitempty"`
}

// InitializeResult answers initialize: the revision the session speaks
// (the client's, or the server's counter-offer), the server's capabilities
// and identity.
type InitializeResult struct {
	// ProtocolVersion is the negotiated revision; required.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are what the server supports; required.
	Capabilities ServerCapabilities `json:"capabilities"`
	// ServerInfo names the server; required.
	ServerInfo Implementation `json:"serverInfo"`
	// Instructions tell a client how to use the server.
	Instructions string `json:"instructions,omitempty"`
}

// SetLevelRequestParams are the params of logging/setLevel.
type SetLevelRequestParams struct {
	// Level is the lowest severity the client wants; required.
	Level LoggingLevel `json:"level"`
}

// Methods of resource subscriptions, which only the legacy revisions
// define (2026-07-28 subscribes through subscriptions/listen).
const (
	MethodResourcesSubscribe   = "resources/subscribe"
	MethodResourcesUnsubscribe = "resources/unsubscribe"
)

// SubscribeRequestParams are the params of resources/subscribe and
// resources/unsubscribe.
type SubscribeRequestParams struct {
	// URI is the resource to follow (or to stop following); required.
	URI string `json:"uri"`
}
