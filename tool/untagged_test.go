package tool_test

import (
	"bytes"
	"context"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/tool"
)

type untaggedArgs struct {
	UserID  string
	Limit   int    `json:"limit"`
	Comment string `description:"A note."`
	Mode    string `jsonschema:"enum=a|b"`
}

// An argument field with no tag at all is warned about, once per type.
func TestNewWarnsUntaggedFields(t *testing.T) {
	var logs bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(old)

	tool.ForgetWarned(reflect.TypeFor[untaggedArgs]())
	fn := func(context.Context, untaggedArgs) (*tool.Result, error) { return nil, nil }
	tool.New("first", "", fn)
	tool.New("second", "", fn)
	tool.New("tagged", "", func(context.Context, struct {
		A string `json:"a"`
	}) (*tool.Result, error) {
		return nil, nil
	})
	got := logs.String()
	if strings.Count(got, "level=WARN") != 1 || !strings.Contains(got, "tool=first") || !strings.Contains(got, "fields=UserID") {
		t.Errorf("warnings:\n%s", got)
	}
}
