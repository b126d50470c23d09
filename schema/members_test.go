package schema

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	json "github.com/goccy/go-json"
)

type membersInner struct {
	Deep string `json:"deep"`
}

type MembersBase struct {
	ID string `json:"id,omitempty"`
}

type membersOuter struct {
	MembersBase
	*membersInner
	Name   string  `json:"name,string"`
	Ptr    *int    `json:"ptr" jsonschema:"minimum=1,nullable"`
	Zero   int     `json:"zero,omitzero"`
	hidden string  // not a member
	Skip   float64 `json:"-"`
}

// Members is the wire model inference reads: names, index paths through
// embedded structs (and pointers), tag options.
func TestMembers(t *testing.T) {
	got := Members(reflect.TypeFor[*membersOuter]())
	want := []Member{
		{Name: "id", GoPath: "MembersBase.ID", Index: []int{0, 0}, Type: reflect.TypeFor[string](), OmitEmpty: true},
		{Name: "deep", GoPath: "membersInner.Deep", Index: []int{1, 0}, Type: reflect.TypeFor[string](), ViaPointer: true},
		{Name: "name", GoPath: "Name", Index: []int{2}, Type: reflect.TypeFor[string](), Quoted: true},
		{Name: "ptr", GoPath: "Ptr", Index: []int{3}, Type: reflect.TypeFor[*int](), Nullable: true},
		{Name: "zero", GoPath: "Zero", Index: []int{4}, Type: reflect.TypeFor[int](), OmitZero: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Members:\n got %+v\nwant %+v", got, want)
	}
	for i, m := range got {
		if f := reflect.TypeFor[membersOuter]().FieldByIndex(m.Index); f.Type != m.Type {
			t.Errorf("member %d: index %v leads to %s", i, m.Index, f.Type)
		}
	}
	if Members(reflect.TypeFor[int]()) != nil || len(Members(reflect.TypeFor[struct{}]())) != 0 {
		t.Error("Members of a type without members")
	}
}

// Map keys that encoding.TextMarshaler writes as strings are member names;
// a json.Number is a number.
func TestForTextKeysAndNumbers(t *testing.T) {
	type T struct {
		ByAddr map[netip.Addr]int `json:"byAddr"`
		N      json.Number        `json:"n"`
	}
	want := `{"type":"object","properties":{"byAddr":{"type":"object","additionalProperties":{"type":"integer"}},"n":{"type":"number"}},"required":["byAddr","n"],"additionalProperties":false}`
	if got := mustFor[T](t); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	_, err := FromType(reflect.TypeFor[struct{ M map[[2]int]int }]())
	if err == nil || !strings.Contains(err.Error(), ".M (type map[[2]int]int): map keys must be strings or implement encoding.TextMarshaler") {
		t.Errorf("array keys: %v", err)
	}
	_, err = FromType(reflect.TypeFor[struct{ P unsafe.Pointer }]())
	if err == nil || !strings.Contains(err.Error(), ".P (type unsafe.Pointer): type cannot be represented in JSON Schema") {
		t.Errorf("unsafe.Pointer: %v", err)
	}
}
