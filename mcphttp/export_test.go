package mcphttp

// SessionsHeld reports how many sessions m holds events for.
func SessionsHeld(m *MemoryEventStore) int { return m.sessionsHeld() }

// StoreUsage reports the bytes and events m holds across sessions and the
// length of its append order.
func StoreUsage(m *MemoryEventStore) (bytes int64, events, order int) { return m.usage() }

// SetDescriptorCounter makes h count the process's open descriptors with
// count, from its next check on.
func SetDescriptorCounter(h *Handler, count func() (open, limit int, ok bool)) {
	h.fds.setCounter(count)
}

// SessionStreams reports how many GET streams session sid of h holds open
// (-1 when there is no such session).
func SessionStreams(h *Handler, sid string) int {
	s := h.sessions.acquire(sid)
	if s == nil {
		return -1
	}
	defer s.release()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.getStreams
}

// CountDescriptors is how the handler counts the process's open
// descriptors.
var CountDescriptors = countDescriptors
