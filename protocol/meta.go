package protocol

import (
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Meta is a _meta object (MetaObject in the schema): keys to raw JSON
// values. Keys follow the spec's naming rules; those whose prefix has
// "modelcontextprotocol" or "mcp" as its second label are reserved.
type Meta map[string]json.RawMessage

// Object is a JSON object whose member values are kept raw (JSONObject in
// the schema), such as a capability that has no defined members yet. A
// nil Object is left out; an empty one is sent as {}.
type Object map[string]json.RawMessage

// Reserved _meta keys of 2026-07-28.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaProgressToken      = "progressToken"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// ProgressToken is the token a request's _meta carries to opt in to
// progress notifications: a string or an integer, kept as sent. Its zero
// value means "none".
type ProgressToken = jsonrpc.ID

// RequestMeta is the _meta of every 2026-07-28 request (RequestMetaObject):
// the per-request protocol version, client capabilities and client info,
// plus any other keys.
type RequestMeta struct {
	// ProtocolVersion is the revision the request is written in; required.
	ProtocolVersion string
	// ClientCapabilities are what the client supports for this request
	// alone; required ({} declares none).
	ClientCapabilities *ClientCapabilities
	// ClientInfo describes the client; optional but sent on every request
	// by well-behaved clients.
	ClientInfo *Implementation
	// LogLevel opts in to notifications/message at this level and above
	// for this request; empty means no log notifications.
	LogLevel LoggingLevel
	// ProgressToken opts in to notifications/progress; zero means none.
	ProgressToken ProgressToken
	// Other holds every other key, such as W3C trace context keys
	// ("traceparent") or a vendor's. It must not repeat a key above.
	Other Meta
}

// MarshalJSON encodes the set fields under their reserved keys, then
// Other's keys in sorted order.
func (m RequestMeta) MarshalJSON() ([]byte, error) {
	return encodeMeta(m.Other,
		metaField{MetaProtocolVersion, m.ProtocolVersion != "", m.ProtocolVersion},
		metaField{MetaClientCapabilities, m.ClientCapabilities != nil, m.ClientCapabilities},
		metaField{MetaClientInfo, m.ClientInfo != nil, m.ClientInfo},
		metaField{MetaLogLevel, m.LogLevel != "", m.LogLevel},
		metaField{MetaProgressToken, m.ProgressToken.IsValid(), m.ProgressToken},
	)
}

// UnmarshalJSON decodes the reserved keys into their fields and keeps the
// rest in Other. A reserved key holding a value of the wrong type is an
// error.
func (m *RequestMeta) UnmarshalJSON(data []byte) error {
	var v RequestMeta
	err := decodeMeta(data, &v.Other,
		metaField{key: MetaProtocolVersion, value: &v.ProtocolVersion},
		metaField{key: MetaClientCapabilities, value: &v.ClientCapabilities},
		metaField{key: MetaClientInfo, value: &v.ClientInfo},
		metaField{key: MetaLogLevel, value: &v.LogLevel},
		metaField{key: MetaProgressToken, value: &v.ProgressToken},
	)
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// MetaOf encodes a _meta object given as Go values, key by key; nil or
// empty gives nil. It fails for a value that cannot be encoded, naming its
// key.
func MetaOf(m map[string]any) (Meta, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(Meta, len(m))
	for k, v := range m {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("_meta key %q: %w", k, err)
		}
		out[k] = b
	}
	return out, nil
}

// ResultMeta is the _meta of a result (ResultMetaObject).
type ResultMeta struct {
	// ServerInfo describes the server; results SHOULD carry it.
	ServerInfo *Implementation
	// Other holds every other key; it must not repeat the key above.
	Other Meta
}

// MarshalJSON encodes ServerInfo under its reserved key, then Other's keys
// in sorted order.
func (m ResultMeta) MarshalJSON() ([]byte, error) {
	return encodeMeta(m.Other,
		metaField{MetaServerInfo, m.ServerInfo != nil, m.ServerInfo},
	)
}

// UnmarshalJSON decodes the reserved key into ServerInfo and keeps the
// rest in Other.
func (m *ResultMeta) UnmarshalJSON(data []byte) error {
	var v ResultMeta
	if err := decodeMeta(data, &v.Other, metaField{key: MetaServerInfo, value: &v.ServerInfo}); err != nil {
		return err
	}
	*m = v
	return nil
}

// NotificationMeta is the _meta of a notification (NotificationMetaObject).
type NotificationMeta struct {
	// SubscriptionID is the id of the subscriptions/listen request whose
	// stream delivers the notification; zero on request-scoped
	// notifications such as progress.
	SubscriptionID jsonrpc.ID
	// Other holds every other key; it must not repeat the key above.
	Other Meta
}

// MarshalJSON encodes SubscriptionID under its reserved key, then Other's
// keys in sorted order.
func (m NotificationMeta) MarshalJSON() ([]byte, error) {
	return encodeMeta(m.Other,
		metaField{MetaSubscriptionID, m.SubscriptionID.IsValid(), m.SubscriptionID},
	)
}

// UnmarshalJSON decodes the reserved key into SubscriptionID and keeps the
// rest in Other.
func (m *NotificationMeta) UnmarshalJSON(data []byte) error {
	var v NotificationMeta
	if err := decodeMeta(data, &v.Other, metaField{key: MetaSubscriptionID, value: &v.SubscriptionID}); err != nil {
		return err
	}
	*m = v
	return nil
}

// SubscriptionsListenResultMeta is the _meta of the result that ends a
// subscriptions/listen stream (SubscriptionsListenResultMetaObject).
type SubscriptionsListenResultMeta struct {
	// SubscriptionID is the id of the subscriptions/listen request;
	// required.
	SubscriptionID jsonrpc.ID
	// ServerInfo describes the server.
	ServerInfo *Implementation
	// Other holds every other key; it must not repeat a key above.
	Other Meta
}

// MarshalJSON encodes the set fields under their reserved keys, then
// Other's keys in sorted order.
func (m SubscriptionsListenResultMeta) MarshalJSON() ([]byte, error) {
	return encodeMeta(m.Other,
		metaField{MetaSubscriptionID, m.SubscriptionID.IsValid(), m.SubscriptionID},
		metaField{MetaServerInfo, m.ServerInfo != nil, m.ServerInfo},
	)
}

// UnmarshalJSON decodes the reserved keys into their fields and keeps the
// rest in Other.
func (m *SubscriptionsListenResultMeta) UnmarshalJSON(data []byte) error {
	var v SubscriptionsListenResultMeta
	err := decodeMeta(data, &v.Other,
		metaField{key: MetaSubscriptionID, value: &v.SubscriptionID},
		metaField{key: MetaServerInfo, value: &v.ServerInfo},
	)
	if err != nil {
		return err
	}
	*m = v
	return nil
}
