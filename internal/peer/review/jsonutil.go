package review

import (
	"strconv"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// members is a JSON object's members by exact key; a repeated key keeps
// its last value.
type members map[string]json.RawMessage

// object decodes raw as a JSON object; false when it is not one (or not
// JSON at all). One scan checks and splits it; the values alias raw. A
// repeated key keeps its last value, as a decoder into a map would.
func object(raw json.RawMessage) (members, bool) {
	if jsonx.FirstByte(raw) != '{' {
		return nil, false
	}
	var s jsonx.Scanner
	s.Collect = true
	if _, ok := s.Scan(raw); !ok {
		return nil, false
	}
	m := make(members, s.NumMembers())
	for i := range s.NumMembers() {
		mb := s.Member(i)
		m[mb.Key.Text(raw)] = json.RawMessage(raw[mb.Value.Start:mb.Value.End])
	}
	return m, true
}

// kind names the JSON type of a valid JSON value as JSON Schema does.
func kind(raw json.RawMessage) string {
	c := jsonx.FirstByte(raw)
	if t := jsonx.TypeName(c); t != "" {
		return t
	}
	if c == 0 {
		return "nothing"
	}
	return "number"
}

// text returns raw as a string when it is a JSON string.
func text(raw json.RawMessage) (string, bool) {
	var s string
	if kind(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// array decodes raw as a JSON array.
func array(raw json.RawMessage) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	if kind(raw) != "array" || json.Unmarshal(raw, &items) != nil {
		return nil, false
	}
	return items, true
}

// at returns the JSON pointer base extended by the reference tokens.
func at(base string, tokens ...string) string { return base + jsonx.Pointer(tokens...) }

// index is a JSON pointer reference token for an array index.
func index(i int) string { return strconv.Itoa(i) }

// clipped shortens a string quoted from the reviewed JSON.
func clipped(s string) string { return clip.String(s) }

// quoted quotes a string from the reviewed JSON, clipped.
func quoted(s string) string { return clip.Quote(s) }

// optionalStrings reports every listed member of m that is present but not
// a JSON string (null included: an optional member is absent, not null).
func optionalStrings(rep *report, base string, m members, keys ...string) {
	for _, k := range keys {
		if v, ok := m[k]; ok && kind(v) != "string" {
			rep.add(RuleFieldType, at(base, k), "%s must be a string, not %s", k, kind(v))
		}
	}
}

// optionalObject returns the member key of m when it is an object; false
// when it is absent, or when it is not an object, which it reports under
// rule.
func optionalObject(rep *report, rule, base string, m members, key string) (members, bool) {
	raw, ok := m[key]
	if !ok {
		return nil, false
	}
	o, ok := object(raw)
	if !ok {
		rep.add(rule, at(base, key), "%s must be an object, not %s", key, kind(raw))
	}
	return o, ok
}

// required returns the string member key of m, reporting rule when it is
// missing or not a string.
func required(rep *report, rule, base string, m members, key string) (string, bool) {
	v, ok := m[key]
	if !ok {
		rep.add(rule, at(base, key), "%s is missing", key)
		return "", false
	}
	s, ok := text(v)
	if !ok {
		rep.add(rule, at(base, key), "%s must be a string, not %s", key, kind(v))
	}
	return s, ok
}
