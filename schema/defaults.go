package schema

import (
	"bytes"
	"fmt"

	json "github.com/goccy/go-json"
)

// defaultsNode lists, for one object schema, the properties that have a
// default or lead to nested properties that do.
type defaultsNode struct {
	props []propDefault // sorted by name
}

type propDefault struct {
	name  string
	value json.RawMessage // the default; nil when none
	child *defaultsNode   // defaults below this property; nil when none
}

// buildDefaults collects defaults reachable from s through "properties".
// It returns nil when there are none.
func buildDefaults(s map[string]any) *defaultsNode {
	props, _ := s["properties"].(map[string]any)
	var node defaultsNode
	for _, name := range sortedKeys(props) {
		sub, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		p := propDefault{name: name, child: buildDefaults(sub)}
		if def, ok := sub["default"]; ok {
			var buf bytes.Buffer
			if encode(&buf, def) == nil {
				p.value = buf.Bytes()
			}
		}
		if p.value != nil || p.child != nil {
			node.props = append(node.props, p)
		}
	}
	if len(node.props) == 0 {
		return nil
	}
	return &node
}

// ApplyDefaults fills in the "default" of every property that is absent
// from instance, at the top level and in nested objects reached through
// "properties". It returns instance itself, unchanged, when nothing needs
// filling in (always so for a schema without defaults, without any work).
//
// Limits: only "properties" chains are followed — defaults inside "$ref"
// targets, "allOf"/"anyOf"/"oneOf", "items", "additionalProperties" or
// conditionals are not applied. A property present with the value null is
// left alone. An absent nested object is not created to hold its
// properties' defaults. When something is filled in, every object on the
// way is re-encoded with its keys sorted; values are kept byte for byte. Validate the result, not the input, so that the bytes checked
// are the bytes the tool receives.
func (s *Schema) ApplyDefaults(instance json.RawMessage) (json.RawMessage, error) {
	if s.defaults == nil {
		return instance, nil
	}
	out, _, err := applyDefaults(instance, s.defaults)
	return out, err
}

func applyDefaults(instance json.RawMessage, node *defaultsNode) (json.RawMessage, bool, error) {
	if firstNonSpace(instance) != '{' {
		return instance, false, nil // not an object: validation reports it
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(instance, &m); err != nil {
		return nil, false, fmt.Errorf("schema: applying defaults: %w", err)
	}
	changed := false
	for _, p := range node.props {
		v, present := m[p.name]
		switch {
		case !present && p.value != nil:
			m[p.name] = p.value
			changed = true
		case present && p.child != nil:
			nv, ch, err := applyDefaults(v, p.child)
			if err != nil {
				return nil, false, err
			}
			if ch {
				m[p.name] = nv
				changed = true
			}
		}
	}
	if !changed {
		return instance, false, nil
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(&buf, k)
		buf.WriteByte(':')
		buf.Write(m[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), true, nil
}

func firstNonSpace(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}
