package tool

import "reflect"

// ForgetWarned lets a test see again the once-per-type warning about t's
// untagged fields (go test -count=N runs a test N times in one process).
func ForgetWarned(t reflect.Type) { warnedTypes.Delete(t) }
