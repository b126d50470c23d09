package protocol

// ElicitationCompleteNotificationParams are the params of
// notifications/elicitation/complete, which a server sends when the
// out-of-band interaction of a URL elicitation is done (2025-11-25,
// "URL Mode Elicitation Requests"; the 2026-07-28 revision has no such
// notification).
type ElicitationCompleteNotificationParams struct {
	// ElicitationID is the elicitationId of the elicitation/create
	// request that asked for the interaction; required.
	ElicitationID string `json:"elicitationId"`
	// Meta is the notification's _meta.
	Meta *NotificationMeta `json:"_meta,omitempty"`
}
