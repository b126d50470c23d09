package mcphttp

// SessionsHeld reports how many sessions m holds events for.
func SessionsHeld(m *MemoryEventStore) int { return m.sessionsHeld() }

// StoreUsage reports the bytes and events m holds across sessions and the
// length of its append order.
func StoreUsage(m *MemoryEventStore) (bytes int64, events, order int) { return m.usage() }
