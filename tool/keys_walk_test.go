package tool

import (
	"reflect"
	"strings"
	"testing"
)

// pathTo finds the object holding a key, through objects, arrays, white
// space and escaped names.
func TestPathTo(t *testing.T) {
	tests := []struct {
		data, key string // the key is found by its first occurrence, quotes included
		want      []string
	}{
		{`{"Text":1}`, `"Text"`, nil},
		{`{"a":{"Flag":true}}`, `"Flag"`, []string{"a"}},
		{` { "a" : [ 1 , { "b" : { "Flag" : 1 } } ] } `, `"Flag"`, []string{"a", "1", "b"}},
		{`[{"x":1},{"y":[[],{"Z":2}]}]`, `"Z"`, []string{"1", "y", "1"}},
		{`{"s\/lash":{"K":1},"t":2}`, `"K"`, []string{"s/lash"}},
		{`{"a":"{\"K\":1}","b":{"K":2}}`, `"K":2`, []string{"b"}},
	}
	for _, tt := range tests {
		at := strings.Index(tt.data, tt.key)
		if got := pathTo([]byte(tt.data), at); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("pathTo(%s, %q) = %q, want %q", tt.data, tt.key, got, tt.want)
		}
	}
}

func TestEachMemberAndItem(t *testing.T) {
	var names, vals []string
	eachMember([]byte(` { "a" : 1 , "b\u0021" : [ 2 ] , "c":{} } `), func(name string, val []byte) bool {
		names, vals = append(names, name), append(vals, string(val))
		return name != "b!"
	})
	if !reflect.DeepEqual(names, []string{"a", "b!"}) || !reflect.DeepEqual(vals, []string{"1", "[ 2 ]"}) {
		t.Errorf("eachMember: %q %q", names, vals)
	}
	var items []string
	eachItem([]byte(`[ 1 , "x" , {"a":[]} ]`), func(i int, val []byte) bool {
		items = append(items, string(val))
		return true
	})
	if !reflect.DeepEqual(items, []string{"1", `"x"`, `{"a":[]}`}) {
		t.Errorf("eachItem: %q", items)
	}
	for _, bad := range []string{``, `{`, `{"a"`, `{"a":`, `[1,`, `[`, `{"a":1,}`, `"s"`, `1`} {
		eachMember([]byte(bad), func(string, []byte) bool { return true })
		eachItem([]byte(bad), func(int, []byte) bool { return true })
		pathTo([]byte(bad), 1)
	}
}
