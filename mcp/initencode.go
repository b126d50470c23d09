package mcp

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// encodeInitialize encodes an initialize result. The result is the first
// thing a server sends, so the first encoding through the wire model is
// paid on every start: goccy/go-json builds the encoder of
// InitializeResult's types then (about 0.5 ms). The common shape (the
// capabilities the server declares, an identity without icons, strings
// that need no escaping beyond what both encoders write alike) is written
// by hand, byte for byte as the typed encoding (json.Marshal of
// protocol.InitializeResult) writes it: TestEncodeInitializeMatchesMarshal
// and, for every revision and capability combination,
// TestEncodeInitializeEveryCapabilitySet hold it to that. Anything else
// goes through json.Marshal. BenchmarkInitializeFirst measures what it
// saves on a server's first initialize.
func encodeInitialize(res *protocol.InitializeResult) (json.RawMessage, error) {
	if raw, ok := appendInitialize(make([]byte, 0, 256), res); ok {
		return raw, nil
	}
	return json.Marshal(res)
}

func appendInitialize(b []byte, res *protocol.InitializeResult) ([]byte, bool) {
	c, info := &res.Capabilities, &res.ServerInfo
	if len(c.Experimental) > 0 || len(c.Extensions) > 0 || len(info.Icons) > 0 ||
		len(c.Logging) > 0 || len(c.Completions) > 0 {
		return nil, false
	}
	b = append(b, `{"protocolVersion":`...)
	b, ok := appendPlain(b, res.ProtocolVersion)
	b = append(b, `,"capabilities":{`...)
	comma := false
	member := func(name string, present bool, body string) {
		if !present {
			return
		}
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
		b = append(b, body...)
	}
	member("logging", c.Logging != nil, "{}")
	member("completions", c.Completions != nil, "{}")
	if c.Prompts != nil {
		member("prompts", true, "{"+flags(flag{"listChanged", c.Prompts.ListChanged})+"}")
	}
	if c.Resources != nil {
		member("resources", true, "{"+flags(flag{"subscribe", c.Resources.Subscribe}, flag{"listChanged", c.Resources.ListChanged})+"}")
	}
	if c.Tools != nil {
		member("tools", true, "{"+flags(flag{"listChanged", c.Tools.ListChanged})+"}")
	}
	b = append(b, `},"serverInfo":{"name":`...)
	b, ok1 := appendPlain(b, info.Name)
	ok = ok && ok1
	for _, f := range []struct {
		key, v string
		always bool
	}{{"title", info.Title, false}, {"version", info.Version, true}, {"description", info.Description, false}, {"websiteUrl", info.WebsiteURL, false}} {
		if f.v == "" && !f.always {
			continue
		}
		b = append(b, `,"`...)
		b = append(b, f.key...)
		b = append(b, `":`...)
		b, ok1 = appendPlain(b, f.v)
		ok = ok && ok1
	}
	b = append(b, '}')
	if res.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b, ok1 = appendPlain(b, res.Instructions)
		ok = ok && ok1
	}
	return append(b, '}'), ok
}

// flag is an optional boolean member.
type flag struct {
	name string
	v    *bool
}

// flags writes the members of fs that are set, in order.
func flags(fs ...flag) string {
	s := ""
	for _, f := range fs {
		if f.v == nil {
			continue
		}
		if s != "" {
			s += ","
		}
		s += `"` + f.name + `":`
		if *f.v {
			s += "true"
		} else {
			s += "false"
		}
	}
	return s
}

// appendPlain appends s as a JSON string when every encoder writes it the
// same way: printable ASCII other than the HTML characters goccy/go-json
// escapes (<, >, &), with ", \, newline, carriage return and tab escaped.
// It reports false for anything else.
func appendPlain(b []byte, s string) ([]byte, bool) {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&':
			return b, false
		default:
			b = append(b, c)
		}
	}
	return append(b, '"'), true
}
