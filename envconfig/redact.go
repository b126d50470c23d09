package envconfig

import (
	"encoding"
	"fmt"
	"reflect"
	"strings"
)

// Mask replaces the value of a secret field in [Redacted].
const Mask = "****"

// Redacted describes the struct that src points to (or src itself, when it
// is a struct value) for logging: it maps every variable name, prefix
// included, to the field's current value. Secret fields show [Mask] when
// they hold a non-zero value and "" otherwise, so a log can tell a missing
// secret from a present one without revealing it. URLs are shown with any
// password replaced by "xxxxx". Only [WithPrefix] matters among opts.
//
// Redacted returns nil when src is neither a struct nor a non-nil pointer
// to one.
func Redacted(src any, opts ...Option) map[string]string {
	v := reflect.ValueOf(src)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	if !v.CanAddr() {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	o := newOptions(opts)
	out := map[string]string{}
	for _, f := range collectFields(v, o.prefix) {
		switch {
		case f.secret && f.value.IsZero():
			out[f.name] = ""
		case f.secret:
			out[f.name] = Mask
		default:
			out[f.name] = formatValue(f.value, f.sep)
		}
	}
	return out
}

// textMarshalerType is the interface of the types formatValue renders with
// their own MarshalText.
var textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()

// formatValue renders v the way Load would accept it back.
func formatValue(v reflect.Value, sep string) string {
	t := v.Type()
	switch {
	case t == durationType:
		return fmt.Sprint(v.Interface())
	case t == urlType:
		u := v.Addr().Interface().(interface{ Redacted() string })
		return u.Redacted()
	case reflect.PointerTo(t).Implements(textMarshalerType):
		text, err := v.Addr().Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return fmt.Sprint(v.Interface())
		}
		return string(text)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		return formatValue(v.Elem(), sep)
	case reflect.Slice:
		items := make([]string, v.Len())
		for i := range items {
			items[i] = formatValue(v.Index(i), sep)
		}
		return strings.Join(items, sep)
	}
	return fmt.Sprint(v.Interface())
}
