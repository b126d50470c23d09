package protocol

import "time"

// ResultType tells a client how to read a result object.
type ResultType string

// Result types. A result without resultType (from a server of an earlier
// revision) is to be read as complete.
const (
	ResultTypeComplete      ResultType = "complete"
	ResultTypeInputRequired ResultType = "input_required"
)

// CacheScope says who may reuse a cached result.
type CacheScope string

// Cache scopes.
const (
	// CacheScopePublic marks a result without user-specific data: any
	// client or intermediary may serve it across authorization contexts.
	CacheScopePublic CacheScope = "public"
	// CacheScopePrivate marks a result reusable only within the same
	// authorization context.
	CacheScopePrivate CacheScope = "private"
)

// TTL returns a ttlMs value: d in whole milliseconds, never negative.
func TTL(d time.Duration) *int64 {
	ms := d.Milliseconds()
	if ms < 0 {
		ms = 0
	}
	return &ms
}

// Role is the sender or recipient of a message or content.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// LoggingLevel is a log severity (RFC 5424), from debug up to emergency.
type LoggingLevel string

// Logging levels, in ascending severity.
const (
	LevelDebug     LoggingLevel = "debug"
	LevelInfo      LoggingLevel = "info"
	LevelNotice    LoggingLevel = "notice"
	LevelWarning   LoggingLevel = "warning"
	LevelError     LoggingLevel = "error"
	LevelCritical  LoggingLevel = "critical"
	LevelAlert     LoggingLevel = "alert"
	LevelEmergency LoggingLevel = "emergency"
)

// ElicitAction is the user's answer to an elicitation.
type ElicitAction string

// Elicitation actions.
const (
	ElicitAccept  ElicitAction = "accept"
	ElicitDecline ElicitAction = "decline"
	ElicitCancel  ElicitAction = "cancel"
)
