package schema

import (
	"reflect"
	"strings"
)

// field is one JSON member of a struct, after flattening embedded structs
// the way encoding/json does.
type field struct {
	name     string // JSON name
	goPath   string // Go selector from the struct, such as "Inner.Name"
	typ      reflect.Type
	tag      reflect.StructTag
	tagged   bool // name came from a json tag
	depth    int  // embedding depth
	optional bool // omitempty, omitzero, or reached through an embedded pointer
	quoted   bool // the ",string" option
}

// structFields lists the JSON members of struct type t in field order.
// Like encoding/json: "-" fields and unexported fields are skipped; untagged
// embedded structs (or pointers to structs) are flattened; when two members
// share a name the shallowest wins, then the tagged one, and otherwise both
// are dropped.
func structFields(t reflect.Type) []field {
	var all []field
	collectFields(t, 0, "", false, map[reflect.Type]bool{t: true}, &all)
	return dominant(all)
}

func collectFields(t reflect.Type, depth int, prefix string, viaPtr bool, seen map[reflect.Type]bool, out *[]field) {
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
				collectFields(ft, depth+1, prefix+sf.Name+".", viaPtr || isPtr, seen, out)
				delete(seen, ft)
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		f := field{
			name:     name,
			goPath:   prefix + sf.Name,
			typ:      sf.Type,
			tag:      sf.Tag,
			tagged:   name != "",
			depth:    depth,
			optional: viaPtr || hasOption(opts, "omitempty") || hasOption(opts, "omitzero"),
			quoted:   hasOption(opts, "string"),
		}
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
