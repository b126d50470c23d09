package tool

import (
	"log/slog"
	"reflect"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/schema"
)

// warnedTypes holds the In types warnUntagged has warned about.
var warnedTypes sync.Map // reflect.Type → struct{}

// warnUntagged logs, once per type, the members of the struct In whose
// fields carry neither a json nor a description tag (nor a jsonschema
// one): their property names are their Go names ("UserID"), which is
// almost always a mistake in a tool's arguments, and nothing tells the
// model what they mean.
func warnUntagged(toolName string, in reflect.Type) {
	names := untaggedMembers(in)
	if len(names) == 0 {
		return
	}
	if _, seen := warnedTypes.LoadOrStore(in, struct{}{}); seen {
		return
	}
	slog.Default().Warn("tool: argument fields without a json or description tag take their Go names as property names",
		"tool", toolName, "type", in.String(), "fields", strings.Join(names, ", "))
}

// untaggedMembers lists the Go paths of the top-level members of struct t
// whose fields have none of the json, description and jsonschema tags.
func untaggedMembers(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for _, m := range schema.Members(t) {
		tag := t.FieldByIndex(m.Index).Tag
		_, j := tag.Lookup("json")
		_, d := tag.Lookup("description")
		_, s := tag.Lookup("jsonschema")
		if !j && !d && !s {
			names = append(names, m.GoPath)
		}
	}
	return names
}
