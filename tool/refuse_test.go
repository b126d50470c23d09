package tool_test

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"unsafe"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
	"github.com/mcpwire/mcpwire/tool"
)

type refuseConfig struct {
	Name    string       `json:"name"`
	Handler fmt.Stringer `json:"handler"`
}

type refuseNested struct {
	Config refuseConfig `json:"config"`
}

type refuseHidden struct {
	count int
	label string
}

type refuseTextOnly struct{ v int }

func (refuseTextOnly) MarshalText() ([]byte, error) { return []byte("v"), nil }

// refuseNamer is a map key written by MarshalText that cannot be read.
type refuseNamer struct{ v int }

func (refuseNamer) MarshalText() ([]byte, error) { return []byte("k"), nil }

// An In type that no call could fill is refused at registration, with the
// path of the field and the reason, in the words of schema.Error.
func TestNewRefusesArgumentsNoCallCanFill(t *testing.T) {
	tests := []struct {
		name  string
		build func() tool.Tool
		want  []string
	}{
		{"interface with methods, nested", func() tool.Tool { return tool.New("t", "", noop[refuseNested, *tool.Result]()) },
			[]string{`tool "t": input schema: schema: tool_test.refuseNested.Config.Handler (type fmt.Stringer): an interface type with methods cannot receive arguments`}},
		{"interface with methods in a slice", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				L []error `json:"l"`
			}, *tool.Result]())
		}, []string{".L[] (type error): an interface type with methods"}},
		{"interface with methods in a map", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				M map[string]fmt.Stringer `json:"m"`
			}, *tool.Result]())
		}, []string{".M[key] (type fmt.Stringer)"}},
		{"interface with methods as In", func() tool.Tool { return tool.New("t", "", noop[fmt.Stringer, *tool.Result]()) },
			[]string{"schema: fmt.Stringer (type fmt.Stringer): an interface type with methods"}},
		{"no exported field", func() tool.Tool { return tool.New("t", "", noop[refuseHidden, *tool.Result]()) },
			[]string{"schema: tool_test.refuseHidden (type tool_test.refuseHidden): the struct has fields but none is exported"}},
		{"no exported field, nested", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				Opts refuseHidden `json:"opts"`
			}, *tool.Result]())
		}, []string{".Opts (type tool_test.refuseHidden): the struct has fields but none is exported"}},
		{"text form that cannot be read", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				V refuseTextOnly `json:"v"`
			}, *tool.Result]())
		}, []string{".V (type tool_test.refuseTextOnly): the type is written as a JSON string (encoding.TextMarshaler) but cannot be read from one"}},
		{"map key that cannot be read", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				M map[refuseNamer]int `json:"m"`
			}, *tool.Result]())
		}, []string{".M (type map[tool_test.refuseNamer]int): map keys must be strings, integers or implement encoding.TextUnmarshaler"}},
		{"unsafe pointer", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				P unsafe.Pointer `json:"p"`
			}, *tool.Result]())
		}, []string{".P (type unsafe.Pointer): type cannot be represented in JSON Schema (unsafe.Pointer)"}},
		{"channel with a given schema", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				Events chan int `json:"events"`
			}, *tool.Result](), tool.WithInputSchema(json.RawMessage(`{"type":"object"}`)))
		}, []string{".Events (type chan int): type has no JSON form (chan)"}},
		{"function in a nested struct with a given schema", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				Hooks []struct {
					Run func() `json:"run"`
				} `json:"hooks"`
			}, *tool.Result](), tool.WithInputSchema(json.RawMessage(`{"type":"object"}`)))
		}, []string{".Hooks[].Run (type func()): type has no JSON form (func)"}},
		{"complex number with relaxed inference", func() tool.Tool {
			return tool.New("t", "", noop[struct {
				C complex128 `json:"c"`
			}, *tool.Result](), tool.AllowAdditionalProperties())
		}, []string{".C (type complex128)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compile(tt.build())
			var se *schema.Error
			if err == nil || !errors.As(err, &se) {
				t.Fatalf("New: %v; want a *schema.Error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// What any call can fill is still accepted: no arguments, any JSON value,
// maps keyed by text.
func TestNewAcceptsWhatCallsCanFill(t *testing.T) {
	type embedded struct {
		Hidden string `json:"hidden"`
	}
	type withEmbedded struct {
		embedded
		skip int
	}
	builds := map[string]func() tool.Tool{
		"struct{}":        func() tool.Tool { return tool.New("t", "", noop[struct{}, *tool.Result]()) },
		"any":             func() tool.Tool { return tool.New("t", "", noop[any, *tool.Result]()) },
		"any field":       func() tool.Tool { return tool.New("t", "", noop[struct{ V any }, *tool.Result]()) },
		"raw arguments":   func() tool.Tool { return tool.New("t", "", noop[json.RawMessage, *tool.Result]()) },
		"nested struct{}": func() tool.Tool { return tool.New("t", "", noop[struct{ E struct{} }, *tool.Result]()) },
		"promoted member": func() tool.Tool { return tool.New("t", "", noop[withEmbedded, *tool.Result]()) },
		"text keys": func() tool.Tool {
			return tool.New("t", "", noop[struct{ M map[netip.Addr]int }, *tool.Result]())
		},
		"text keys in output":  func() tool.Tool { return tool.New("t", "", noop[struct{}, map[netip.Addr][]string]()) },
		"interface in output":  func() tool.Tool { return tool.New("t", "", noop[struct{}, struct{ S fmt.Stringer }]()) },
		"hidden struct output": func() tool.Tool { return tool.New("t", "", noop[struct{}, refuseHidden]()) },
		"integer keys, given": func() tool.Tool {
			return tool.New("t", "", noop[struct{ M map[int]int }, *tool.Result](), tool.WithInputSchema(json.RawMessage(`{"type":"object"}`)))
		},
		"decoded by own method": func() tool.Tool { return tool.New("t", "", noop[struct{ A netip.Addr }, *tool.Result]()) },
	}
	for name, build := range builds {
		if _, err := compile(build()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
