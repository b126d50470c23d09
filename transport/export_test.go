package transport

// SetHoldHook sets testHookHold for a test and returns what restores it.
func SetHoldHook(f func()) (restore func()) {
	testHookHold = f
	return func() { testHookHold = nil }
}
