package mcphttp

// SessionsHeld reports how many sessions m holds events for.
func SessionsHeld(m *MemoryEventStore) int { return m.sessionsHeld() }
