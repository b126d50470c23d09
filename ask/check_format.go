package ask

import (
	"fmt"
	"net/mail"
	"net/url"
	"sort"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// formatProblems checks the string fields whose schema names a format:
// JSON Schema treats "format" as a note, but an elicitation form lists
// only four, each with one meaning, and an answer the handler is told is
// an email address should be one.
func formatProblems(form protocol.RequestedSchema, content protocol.Object) []string {
	var out []string
	names := make([]string, 0, len(form.Properties))
	for name := range form.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := form.Properties[name].String
		raw, ok := content[name]
		if f == nil || f.Format == "" || !ok {
			continue
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			continue // a type problem, reported by the schema check
		}
		if !validFormat(f.Format, v) {
			out = append(out, fmt.Sprintf("field %q: %q is not a valid %s", name, v, f.Format))
		}
	}
	return out
}

func validFormat(format, v string) bool {
	switch format {
	case "email":
		a, err := mail.ParseAddress(v)
		return err == nil && a.Address == v
	case "uri":
		u, err := url.Parse(v)
		return err == nil && u.Scheme != ""
	case "date":
		_, err := time.Parse(time.DateOnly, v)
		return err == nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, v)
		return err == nil
	}
	return true
}
