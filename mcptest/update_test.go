package mcptest

import (
	"flag"
	"io"
	"testing"
)

// The update flag is a boolean flag named "update" that is set; a flag
// of another kind under that name, or none, is not.
func TestFlagSet(t *testing.T) {
	for _, tt := range []struct {
		name   string
		define func(*flag.FlagSet)
		args   []string
		want   bool
	}{
		{"none", func(*flag.FlagSet) {}, nil, false},
		{"bool unset", func(fs *flag.FlagSet) { fs.Bool("update", false, "") }, nil, false},
		{"bool set", func(fs *flag.FlagSet) { fs.Bool("update", false, "") }, []string{"-update"}, true},
		{"bool false", func(fs *flag.FlagSet) { fs.Bool("update", false, "") }, []string{"-update=false"}, false},
		{"string", func(fs *flag.FlagSet) { fs.String("update", "", "") }, []string{"-update", "true"}, false},
		{"other name", func(fs *flag.FlagSet) { fs.Bool("rewrite", false, "") }, []string{"-rewrite"}, false},
	} {
		fs := flag.NewFlagSet(tt.name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		tt.define(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if got := flagSet(fs, "update"); got != tt.want {
			t.Errorf("%s: flagSet = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// updateEnv is read as strconv.ParseBool reads it; a value that is not a
// boolean is an error, not a silent "no". (This test binary has no
// -update flag.)
func TestUpdateEnv(t *testing.T) {
	for _, tt := range []struct {
		value   string
		want    bool
		wantErr bool
	}{{"", false, false}, {"1", true, false}, {"true", true, false}, {"0", false, false}, {"false", false, false}, {"yes", false, true}} {
		t.Setenv(updateEnv, tt.value)
		got, err := updateRequested()
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%s=%q: %v, %v; want %v, error %v", updateEnv, tt.value, got, err, tt.want, tt.wantErr)
		}
	}
}
