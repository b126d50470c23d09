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
		m[keyText(raw, mb.Key)] = json.RawMessage(raw[mb.Value.Start:mb.Value.End])
	}
	return m, true
}

// keyText returns the text of the key k of raw: one of knownKeys, shared,
// when it is one, so that the members of the objects reviewed on every
// call cost no string of their own.
func keyText(raw []byte, k jsonx.Str) string {
	if !k.Escaped {
		if s, ok := knownKeys[string(k.Content(raw))]; ok {
			return s
		}
	}
	return k.Text(raw)
}

// knownKeys are the member names of the results and content blocks the
// Consume gate reads on every call.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		"content", "isError", "structuredContent", "resultType", "_meta",
		"type", "text", "data", "mimeType", "uri", "name", "title",
		"description", "size", "annotations", "resource", "blob", "icons",
	} {
		m[k] = k
	}
	return m
}()

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
	b, ok := str(raw)
	return string(b), ok
}

// str returns the text of raw when it is one JSON string, without a copy
// when it holds no escape (see jsonx.StringValue).
func str(raw json.RawMessage) ([]byte, bool) { return jsonx.StringValue(raw) }

// array splits raw into its elements when it is a JSON array; they alias
// raw. One scan checks it.
func array(raw json.RawMessage) ([]json.RawMessage, bool) {
	i := jsonx.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	var items []json.RawMessage
	next, empty := jsonx.Open(raw, i)
	for more := !empty; more; {
		var s jsonx.Scanner
		end, ok := s.Skip(raw, next, 1)
		if !ok {
			return nil, false
		}
		items = append(items, raw[next:end])
		if next, more, ok = jsonx.Next(raw, end, ']'); !ok {
			return nil, false
		}
	}
	if jsonx.SkipSpace(raw, next) != len(raw) {
		return nil, false
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return items, true
}

// isTrue reports whether raw is the JSON literal true.
func isTrue(raw json.RawMessage) bool {
	i := jsonx.SkipSpace(raw, 0)
	end, ok := jsonx.Literal(raw, i, "true")
	return ok && jsonx.SkipSpace(raw, end) == len(raw)
}

// contentPaths are the pointers of the first content blocks, made once.
var contentPaths = func() []string {
	p := make([]string, 16)
	for i := range p {
		p[i] = at("/content", index(i))
	}
	return p
}()

// contentPath returns the pointer of the content block at index i.
func contentPath(i int) string {
	if i < len(contentPaths) {
		return contentPaths[i]
	}
	return at("/content", index(i))
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
