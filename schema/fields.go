package schema

import (
	"reflect"
	"slices"
	"strings"
)

// Member is one JSON member of a struct type: an exported field, or one
// promoted from an embedded struct. It is the one wire model of the
// module: inference describes these members, and package tool encodes
// results and decodes arguments by them, so that what a schema promises
// is what goes over the wire.
type Member struct {
	// Name is the JSON name: the json tag's, else the field's.
	Name string
	// GoPath is the Go selector from the struct, such as "Inner.Name".
	GoPath string
	// Index is the field's index sequence from the struct, as
	// reflect.Type.FieldByIndex reads it; it may cross embedded pointers.
	Index []int
	// Type is the field's type.
	Type reflect.Type
	// OmitEmpty, OmitZero and Quoted are the json tag's omitempty,
	// omitzero and string options.
	OmitEmpty, OmitZero, Quoted bool
	// ViaPointer reports a member promoted through an embedded pointer,
	// absent when that pointer is nil.
	ViaPointer bool
	// Nullable reports the jsonschema tag's nullable item: the member's
	// schema also accepts null.
	Nullable bool
}

// Members lists the JSON members of struct type t (after pointers) in
// field order, by the rules inference follows (see the package
// documentation); nil when t is not a struct.
func Members(t reflect.Type) []Member {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	fs := structFields(t)
	ms := make([]Member, len(fs))
	for i, f := range fs {
		ms[i] = Member{
			Name: f.name, GoPath: f.goPath, Index: f.index, Type: f.typ,
			OmitEmpty: f.omitEmpty, OmitZero: f.omitZero, Quoted: f.quoted,
			ViaPointer: f.viaPtr, Nullable: isNullable(f.tag),
		}
	}
	return ms
}

// isNullable reports whether a field's jsonschema tag has the nullable
// flag (a malformed tag is an inference error, not reported here).
func isNullable(tag reflect.StructTag) bool {
	t, _ := parseTag(tag)
	return t.nullable
}

// isRequiredTag reports whether a field's jsonschema tag has the required
// flag.
func isRequiredTag(tag reflect.StructTag) bool {
	t, _ := parseTag(tag)
	return t.required
}

// field is one JSON member of a struct, after flattening embedded structs
// the way encoding/json does.
type field struct {
	name      string // JSON name
	goPath    string // Go selector from the struct, such as "Inner.Name"
	index     []int  // index sequence from the struct
	typ       reflect.Type
	tag       reflect.StructTag
	tagged    bool // name came from a json tag
	depth     int  // embedding depth
	optional  bool // omitempty, omitzero, or reached through an embedded pointer
	omitEmpty bool
	omitZero  bool
	viaPtr    bool // reached through an embedded pointer
	quoted    bool // the ",string" option
}

// structFields lists the JSON members of struct type t in field order.
// Like encoding/json: "-" fields and unexported fields are skipped; untagged
// embedded structs (or pointers to structs) are flattened; when two members
// share a name the shallowest wins, then the tagged one, and otherwise both
// are dropped.
func structFields(t reflect.Type) []field {
	var all []field
	collectFields(t, 0, "", nil, false, map[reflect.Type]bool{t: true}, &all)
	return dominant(all)
}

func collectFields(t reflect.Type, depth int, prefix string, index []int, viaPtr bool, seen map[reflect.Type]bool, out *[]field) {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous {
			ft, isPtr := sf.Type, false
			if ft.Kind() == reflect.Pointer {
				ft, isPtr = ft.Elem(), true
			}
			if !sf.IsExported() && ft.Kind() != reflect.Struct {
				continue
			}
			if name == "" && ft.Kind() == reflect.Struct {
				if seen[ft] {
					continue
				}
				seen[ft] = true
				collectFields(ft, depth+1, prefix+sf.Name+".", append(slices.Clip(index), i), viaPtr || isPtr, seen, out)
				delete(seen, ft)
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		f := field{
			name:      name,
			goPath:    prefix + sf.Name,
			index:     append(slices.Clip(index), i),
			typ:       sf.Type,
			tag:       sf.Tag,
			tagged:    name != "",
			depth:     depth,
			omitEmpty: hasOption(opts, "omitempty"),
			omitZero:  hasOption(opts, "omitzero"),
			viaPtr:    viaPtr,
			quoted:    hasOption(opts, "string"),
		}
		f.optional = f.viaPtr || f.omitEmpty || f.omitZero
		if f.name == "" {
			f.name = sf.Name
		}
		*out = append(*out, f)
	}
}

func hasOption(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

// dominant applies encoding/json's rules for members sharing a name,
// keeping field order.
func dominant(all []field) []field {
	byName := map[string][]int{}
	for i, f := range all {
		byName[f.name] = append(byName[f.name], i)
	}
	keep := make([]bool, len(all))
	for _, idx := range byName {
		minDepth := all[idx[0]].depth
		for _, i := range idx {
			minDepth = min(minDepth, all[i].depth)
		}
		var shallow, tagged []int
		for _, i := range idx {
			if all[i].depth == minDepth {
				shallow = append(shallow, i)
				if all[i].tagged {
					tagged = append(tagged, i)
				}
			}
		}
		switch {
		case len(shallow) == 1:
			keep[shallow[0]] = true
		case len(tagged) == 1:
			keep[tagged[0]] = true
		}
	}
	var out []field
	for i, f := range all {
		if keep[i] {
			out = append(out, f)
		}
	}
	return out
}
