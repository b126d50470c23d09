package envconfig

import (
	"encoding"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// unsupportedError reports a field type Load cannot fill. It names the type,
// never the value, so it is safe to show for secrets too.
type unsupportedError struct{ t reflect.Type }

func (e unsupportedError) Error() string {
	return fmt.Sprintf("unsupported field type %s", e.t)
}

// setValue parses raw into v according to v's type. Errors quote raw; the
// caller redacts them for secrets.
func setValue(v reflect.Value, raw, sep string) error {
	t := v.Type()
	switch {
	case t == durationType:
		d, err := time.ParseDuration(strings.TrimSpace(raw))
		if err != nil {
			return fmt.Errorf("invalid duration %q", raw)
		}
		v.SetInt(int64(d))
		return nil
	case t == urlType:
		u, err := parseURL(raw)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(*u))
		return nil
	case isTextUnmarshaler(t):
		u := v.Addr().Interface().(encoding.TextUnmarshaler)
		if err := u.UnmarshalText([]byte(raw)); err != nil {
			return fmt.Errorf("invalid value %q: %v", raw, err)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return setPointer(v, raw, sep)
	case reflect.Slice:
		return setSlice(v, raw, sep)
	case reflect.String:
		v.SetString(raw)
	case reflect.Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(raw))
		if err != nil {
			return fmt.Errorf("invalid bool %q (use true or false)", raw)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, t.Bits())
		if err != nil {
			return numberError(raw, t, err)
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(strings.TrimSpace(raw), 10, t.Bits())
		if err != nil {
			return numberError(raw, t, err)
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(strings.TrimSpace(raw), t.Bits())
		if err != nil {
			return numberError(raw, t, err)
		}
		v.SetFloat(f)
	default:
		return unsupportedError{t}
	}
	return nil
}

// numberError words a strconv failure for a value of type t.
func numberError(raw string, t reflect.Type, err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("value %q out of range for %s", raw, t)
	}
	kind := "integer"
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		kind = "number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		kind = "unsigned integer"
	}
	return fmt.Errorf("invalid %s %q", kind, raw)
}

// parseURL accepts only absolute URLs that carry a scheme.
func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" {
		return nil, fmt.Errorf("invalid URL %q: must be absolute with a scheme, like https://host/path", raw)
	}
	return u, nil
}

// setPointer allocates a new value, fills it and stores its address in v.
func setPointer(v reflect.Value, raw, sep string) error {
	elem := reflect.New(v.Type().Elem())
	if isNested(elem.Elem().Type()) {
		return unsupportedError{v.Type()}
	}
	if err := setValue(elem.Elem(), raw, sep); err != nil {
		return err
	}
	v.Set(elem)
	return nil
}

// setSlice splits raw on sep, trims each item, drops empty items and
// parses the rest into a new slice stored in v.
func setSlice(v reflect.Value, raw, sep string) error {
	t := v.Type()
	if isNested(t.Elem()) {
		return unsupportedError{t}
	}
	var items []string
	for item := range strings.SplitSeq(raw, sep) {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	s := reflect.MakeSlice(t, len(items), len(items))
	for i, item := range items {
		if err := setValue(s.Index(i), item, sep); err != nil {
			if _, ok := err.(unsupportedError); ok {
				return unsupportedError{t}
			}
			return fmt.Errorf("item %d: %w", i+1, err)
		}
	}
	v.Set(s)
	return nil
}
