package tool

import (
	"reflect"
	"strings"
	"unsafe"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// stringArgs decodes the arguments of an In type whose members are all
// plain strings (the shape of most tools' arguments: a query, a path, a
// text to echo) straight from the arguments' bytes, one scan and one copy
// of each string, instead of through goccy/go-json, which copies its whole
// input first and decodes it again: for a large text argument that is a
// copy of the message fewer, and less work for a small one.
//
// It reads only what goccy/go-json would read the same way: an object
// whose members are strings or null (null leaves the field empty), keys
// that name a member exactly, unknown keys ignored, the last of repeated
// keys winning. Anything else (a value of another type, a key that names a
// member only when case is ignored, malformed JSON) is left to the
// general decoding, which gives the same result or the usual error.
type stringArgs struct {
	names  []string  // the members' names
	offset []uintptr // the offset in the struct of each name's field
}

// stringArgsFor returns the fast decoding of t, or nil when t is not a
// struct of plain string members: every exported field a string (not a
// type with a JSON or text decoding method of its own), none embedded,
// none with the ",string" option.
func stringArgsFor(t reflect.Type) *stringArgs {
	if t.Kind() != reflect.Struct || t.NumField() == 0 {
		return nil
	}
	p := &stringArgs{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return nil
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		pt := reflect.PointerTo(f.Type)
		if f.Type.Kind() != reflect.String || pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) ||
			strings.Contains(","+opts+",", ",string,") {
			return nil
		}
		if name == "" {
			name = f.Name
		}
		p.names = append(p.names, name)
		p.offset = append(p.offset, f.Offset)
	}
	if len(p.names) == 0 {
		return nil
	}
	return p
}

// decode fills the struct of p's type at dst from args, and reports
// whether it could; when it could not, the struct may be partly filled
// and the caller decodes again from a zero value. dst is written through
// the string fields' offsets, not through reflect, so that a caller's
// struct on its stack stays there (reflect.ValueOf would move it to the
// heap: one allocation per call).
func (p *stringArgs) decode(args json.RawMessage, dst unsafe.Pointer) bool {
	if jsonx.FirstByte(args) != '{' {
		return false
	}
	s := jsonx.Scanner{Collect: true}
	if _, ok := s.Scan(args); !ok {
		return false
	}
	for m := range s.NumMembers() {
		mem := s.Member(m)
		key := mem.Key.Content(args)
		i := p.find(key, mem.Key.Escaped)
		if i < 0 {
			if p.folds(mem.Key.Text(args)) {
				return false // the general decoding matches it; let it decide
			}
			continue
		}
		v := args[mem.Value.Start:mem.Value.End]
		switch v[0] {
		case 'n': // null: the field keeps its value, as in encoding/json
		case '"':
			content := v[1 : len(v)-1]
			*(*string)(unsafe.Add(dst, p.offset[i])) = jsonx.Unescape(content, jsonx.HasEscape(content))
		default:
			return false
		}
	}
	return true
}

// find returns the index of the member the key names exactly, or -1.
func (p *stringArgs) find(key []byte, escaped bool) int {
	for i, n := range p.names {
		if jsonx.EqualText(key, escaped, n) {
			return i
		}
	}
	return -1
}

// folds reports whether key names a member when case is ignored.
func (p *stringArgs) folds(key string) bool {
	for _, n := range p.names {
		if strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}
