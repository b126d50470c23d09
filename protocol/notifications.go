package protocol

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Methods of the 2026-07-28 notifications.
const (
	NotificationCancelled                 = "notifications/cancelled"
	NotificationProgress                  = "notifications/progress"
	NotificationMessage                   = "notifications/message"
	NotificationToolListChanged           = "notifications/tools/list_changed"
	NotificationPromptListChanged         = "notifications/prompts/list_changed"
	NotificationResourceListChanged       = "notifications/resources/list_changed"
	NotificationResourceUpdated           = "notifications/resources/updated"
	NotificationSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged"
)

// NotificationParams are the params every notification may have, and all
// of the list-changed notifications'.
type NotificationParams struct {
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
}

// CancelledNotification cancels a request (client to server), or, from
// the server on stdio, ends a subscriptions/listen stream.
type CancelledNotification struct {
	// Params name the request; required.
	Params CancelledNotificationParams
}

// CancelledNotificationParams are the params of notifications/cancelled.
type CancelledNotificationParams struct {
	// RequestID is the id of the request to cancel; required.
	RequestID jsonrpc.ID `json:"requestId"`
	// Reason may be logged or shown.
	Reason string `json:"reason,omitempty"`
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
}

// MarshalJSON encodes the notification envelope.
func (n CancelledNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationCancelled, n.Params)
}

// UnmarshalJSON decodes a notifications/cancelled envelope.
func (n *CancelledNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationCancelled, &n.Params)
}

// ProgressNotification reports the progress of a request that asked for
// it with a progress token.
type ProgressNotification struct {
	// Params are the progress; required.
	Params ProgressNotificationParams
}

// ProgressNotificationParams are the params of notifications/progress.
type ProgressNotificationParams struct {
	// ProgressToken is the token of the request; required.
	ProgressToken ProgressToken `json:"progressToken"`
	// Progress so far; it increases with every notification; required.
	Progress float64 `json:"progress"`
	// Total is the progress at completion, if known.
	Total *float64 `json:"total,omitempty"`
	// Message describes the current progress.
	Message string `json:"message,omitempty"`
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
}

// MarshalJSON encodes the notification envelope.
func (n ProgressNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationProgress, n.Params)
}

// UnmarshalJSON decodes a notifications/progress envelope.
func (n *ProgressNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationProgress, &n.Params)
}

// LoggingMessageNotification is a log message for a request that opted in
// with a log level (deprecated feature).
type LoggingMessageNotification struct {
	// Params are the message; required.
	Params LoggingMessageNotificationParams
}

// LoggingMessageNotificationParams are the params of
// notifications/message.
type LoggingMessageNotificationParams struct {
	// Level is the message's severity; required.
	Level LoggingLevel `json:"level"`
	// Logger names the logger that issued the message.
	Logger string `json:"logger,omitempty"`
	// Data is the message: any JSON value; required.
	Data json.RawMessage `json:"data"`
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
}

// MarshalJSON encodes the notification envelope.
func (n LoggingMessageNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationMessage, n.Params)
}

// UnmarshalJSON decodes a notifications/message envelope.
func (n *LoggingMessageNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationMessage, &n.Params)
}

// ToolListChangedNotification tells a subscriptions/listen stream that the
// tool list changed.
type ToolListChangedNotification struct {
	// Params are optional; on a listen stream their _meta carries the
	// subscription id.
	Params *NotificationParams
}

// MarshalJSON encodes the notification envelope.
func (n ToolListChangedNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationToolListChanged, optionalParams(n.Params))
}

// UnmarshalJSON decodes a notifications/tools/list_changed envelope.
func (n *ToolListChangedNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationToolListChanged, &n.Params)
}

// PromptListChangedNotification tells a subscriptions/listen stream that
// the prompt list changed.
type PromptListChangedNotification struct {
	// Params are optional; on a listen stream their _meta carries the
	// subscription id.
	Params *NotificationParams
}

// MarshalJSON encodes the notification envelope.
func (n PromptListChangedNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationPromptListChanged, optionalParams(n.Params))
}

// UnmarshalJSON decodes a notifications/prompts/list_changed envelope.
func (n *PromptListChangedNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationPromptListChanged, &n.Params)
}

// ResourceListChangedNotification tells a subscriptions/listen stream that
// the resource list changed.
type ResourceListChangedNotification struct {
	// Params are optional; on a listen stream their _meta carries the
	// subscription id.
	Params *NotificationParams
}

// MarshalJSON encodes the notification envelope.
func (n ResourceListChangedNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationResourceListChanged, optionalParams(n.Params))
}

// UnmarshalJSON decodes a notifications/resources/list_changed envelope.
func (n *ResourceListChangedNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationResourceListChanged, &n.Params)
}

// ResourceUpdatedNotification tells a subscriptions/listen stream that a
// subscribed resource changed.
type ResourceUpdatedNotification struct {
	// Params name the resource; required.
	Params ResourceUpdatedNotificationParams
}

// ResourceUpdatedNotificationParams are the params of
// notifications/resources/updated.
type ResourceUpdatedNotificationParams struct {
	// URI is the resource that changed, possibly a sub-resource of the
	// one subscribed to; required.
	URI string `json:"uri"`
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
}

// MarshalJSON encodes the notification envelope.
func (n ResourceUpdatedNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationResourceUpdated, n.Params)
}

// UnmarshalJSON decodes a notifications/resources/updated envelope.
func (n *ResourceUpdatedNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationResourceUpdated, &n.Params)
}

// SubscriptionsAcknowledgedNotification is the first message of a
// subscriptions/listen stream: the subset of the filter the server
// honours.
type SubscriptionsAcknowledgedNotification struct {
	// Params are the honoured filter; required.
	Params SubscriptionsAcknowledgedNotificationParams
}

// SubscriptionsAcknowledgedNotificationParams are the params of
// notifications/subscriptions/acknowledged.
type SubscriptionsAcknowledgedNotificationParams struct {
	// Notifications are the notification types the server will send;
	// required.
	Notifications SubscriptionFilter `json:"notifications"`
	// Meta carries the subscription id.
	Meta *NotificationMeta `json:"_meta,omitempty"`
}

// MarshalJSON encodes the notification envelope.
func (n SubscriptionsAcknowledgedNotification) MarshalJSON() ([]byte, error) {
	return marshalNotification(NotificationSubscriptionsAcknowledged, n.Params)
}

// UnmarshalJSON decodes a notifications/subscriptions/acknowledged
// envelope.
func (n *SubscriptionsAcknowledgedNotification) UnmarshalJSON(data []byte) error {
	return unmarshalNotification(data, NotificationSubscriptionsAcknowledged, &n.Params)
}

// optionalParams returns p as an interface value that is nil, so that the
// params member is left out, when p is nil.
func optionalParams(p *NotificationParams) any {
	if p == nil {
		return nil
	}
	return p
}
