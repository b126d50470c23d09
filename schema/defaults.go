package schema

import (
	"bytes"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
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
// way is re-encoded compactly: its members keep their order and their
// values byte for byte, and the defaults follow, by property name. Validate
// the result, not the input, so that the bytes checked are the bytes the
// tool receives.
func (s *Schema) ApplyDefaults(instance json.RawMessage) (json.RawMessage, error) {
	if s.defaults == nil {
		return instance, nil
	}
	out, _, err := applyDefaults(instance, s.defaults)
	return out, err
}

func applyDefaults(instance json.RawMessage, node *defaultsNode) (json.RawMessage, bool, error) {
	if jsonx.FirstByte(instance) != '{' {
		return instance, false, nil // not an object: validation reports it
	}
	obj, err := jsonx.ParseObject(instance)
	if err != nil {
		return nil, false, fmt.Errorf("schema: applying defaults: %w", err)
	}
	var missing []propDefault
	var nested map[string]json.RawMessage
	for _, p := range node.props {
		v := obj.Get(p.name)
		switch {
		case v == nil && p.value != nil:
			missing = append(missing, p)
		case v != nil && p.child != nil:
			nv, changed, err := applyDefaults(v, p.child)
			if err != nil {
				return nil, false, err
			}
			if changed {
				if nested == nil {
					nested = map[string]json.RawMessage{}
				}
				nested[p.name] = nv
			}
		}
	}
	if len(missing) == 0 && nested == nil {
		return instance, false, nil
	}
	out := make([]byte, 0, len(instance)+64)
	out = append(out, '{')
	member := func(key string, value json.RawMessage) {
		if len(out) > 1 { // not the first member: more than the brace
			out = append(out, ',')
		}
		out = append(jsonx.AppendString(out, key), ':')
		out = append(out, value...)
	}
	obj.Each(func(key string, value json.RawMessage) {
		if nv, ok := nested[key]; ok {
			value = nv
		}
		member(key, value)
	})
	for _, p := range missing {
		member(p.name, p.value)
	}
	return append(out, '}'), true, nil
}
