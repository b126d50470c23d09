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

// CancelledNotificationParams are the params of notifications/cancelled.
type CancelledNotificationParams struct {
	// RequestID is the id of the request to cancel; required.
	RequestID jsonrpc.ID `json:"requestId"`
	// Reason may be logged or shown.
	Reason string `json:"reason,omitempty"`
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
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

// ResourceUpdatedNotificationParams are the params of
// notifications/resources/updated.
type ResourceUpdatedNotificationParams struct {
	// URI is the resource that changed, possibly a sub-resource of the
	// one subscribed to; required.
	URI string `json:"uri"`
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
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
