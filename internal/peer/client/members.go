package client

import (
	"sort"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// members are the members of a JSON object in order, their values kept as
// they were written, so that the client changes only what it means to.
type members []member

// member is one member of an object.
type member struct {
	key   string
	value json.RawMessage
}

// parseMembers reads the members of an object; nil or empty raw is the
// empty object. ok is false when raw is not one valid JSON object.
func parseMembers(raw json.RawMessage) (m members, ok bool) {
	if len(raw) == 0 {
		return members{}, true
	}
	if !json.Valid(raw) {
		return nil, false
	}
	o, err := jsonx.ParseObject(raw)
	if err != nil {
		return nil, false
	}
	m = make(members, 0, o.Len()+2)
	o.Each(func(key string, value json.RawMessage) { m = append(m, member{key, value}) })
	return m, true
}

// get returns the value of key, nil when absent.
func (m members) get(key string) json.RawMessage {
	for _, x := range m {
		if x.key == key {
			return x.value
		}
	}
	return nil
}

// set replaces the value of key, or adds the member; a nil value removes
// it.
func (m *members) set(key string, value json.RawMessage) {
	for i, x := range *m {
		if x.key != key {
			continue
		}
		if value == nil {
			*m = append((*m)[:i], (*m)[i+1:]...)
		} else {
			(*m)[i].value = value
		}
		return
	}
	if value != nil {
		*m = append(*m, member{key, value})
	}
}

// sort orders the members by key.
func (m members) sort() { sort.SliceStable(m, func(i, j int) bool { return m[i].key < m[j].key }) }

// encode writes the object.
func (m members) encode() json.RawMessage {
	buf := []byte{'{'}
	for i, x := range m {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsonx.AppendString(buf, x.key)
		buf = append(buf, ':')
		buf = append(buf, x.value...)
	}
	return append(buf, '}')
}
