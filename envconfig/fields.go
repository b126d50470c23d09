package envconfig

import (
	"encoding"
	"net/url"
	"reflect"
	"time"
)

// field is one leaf of a configuration struct: a settable value together
// with the variable that feeds it and its tags.
type field struct {
	value    reflect.Value
	name     string // full variable name, prefix included
	def      string
	hasDef   bool
	required bool
	secret   bool
	sep      string
}

var (
	durationType        = reflect.TypeFor[time.Duration]()
	urlType             = reflect.TypeFor[url.URL]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isTextUnmarshaler reports whether a value of type t can decode itself
// from text (through its pointer, as addressable struct fields allow).
func isTextUnmarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(textUnmarshalerType)
}

// isNested reports whether a struct field of type t is a nested
// configuration struct rather than a leaf value.
func isNested(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != urlType && !isTextUnmarshaler(t)
}

// collectFields walks the struct v depth first, in field order, and returns
// its leaves. v must be an addressable struct value.
func collectFields(v reflect.Value, prefix string) []field {
	var out []field
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, tagged := sf.Tag.Lookup("env")
		if name == "-" {
			continue
		}
		if !tagged {
			if isNested(sf.Type) {
				out = append(out, collectFields(v.Field(i), prefix+sf.Tag.Get("envPrefix"))...)
			}
			continue
		}
		def, hasDef := sf.Tag.Lookup("default")
		sep := sf.Tag.Get("sep")
		if sep == "" {
			sep = ","
		}
		out = append(out, field{
			value:    v.Field(i),
			name:     prefix + name,
			def:      def,
			hasDef:   hasDef,
			required: sf.Tag.Get("required") == "true",
			secret:   sf.Tag.Get("secret") == "true",
			sep:      sep,
		})
	}
	return out
}

// structValue returns the struct that dst points to, or false when dst is
// not a non-nil pointer to a struct.
func structValue(dst any) (reflect.Value, bool) {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	return v.Elem(), true
}
