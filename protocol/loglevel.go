package protocol

import "log/slog"

// logLevels are the RFC 5424 levels MCP uses, in ascending severity, with
// the slog level each maps to.
var logLevels = []struct {
	name  LoggingLevel
	level slog.Level
}{
	{LevelDebug, slog.LevelDebug},
	{LevelInfo, slog.LevelInfo},
	{LevelNotice, slog.LevelInfo + 2},
	{LevelWarning, slog.LevelWarn},
	{LevelError, slog.LevelError},
	{LevelCritical, slog.LevelError + 4},
	{LevelAlert, slog.LevelError + 8},
	{LevelEmergency, slog.LevelError + 12},
}

// Slog returns the slog level l maps to (notice between info and warning,
// critical, alert and emergency above error), and false for a name that
// is not one of the eight.
func (l LoggingLevel) Slog() (slog.Level, bool) {
	for _, e := range logLevels {
		if e.name == l {
			return e.level, true
		}
	}
	return 0, false
}

// LoggingLevelOf is the highest level at or below l (debug below debug).
func LoggingLevelOf(l slog.Level) LoggingLevel {
	name := LevelDebug
	for _, e := range logLevels {
		if l >= e.level {
			name = e.name
		}
	}
	return name
}
