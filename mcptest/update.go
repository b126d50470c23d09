package mcptest

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// updateRequested reports whether the test run asks for transcripts to
// be rewritten: the test binary has a boolean flag named "update" and it
// is set, or updateEnv holds a true value. A value of updateEnv that is
// not a boolean is an error rather than a silent "no".
func updateRequested() (bool, error) {
	if flagSet(flag.CommandLine, "update") {
		return true, nil
	}
	v, ok := os.LookupEnv(updateEnv)
	if !ok || v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not a boolean (use 1 or true)", updateEnv, v)
	}
	return on, nil
}

// flagSet reports whether fs has a boolean flag of that name set to
// true; a flag of another kind under the name is not the update flag.
func flagSet(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	on, _ := g.Get().(bool)
	return on
}
