package client_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// gateTools lists one tool of each kind the Admit gate meets.
const gateTools = `{"tools":[
 {"name":"good","inputSchema":{"type":"object"}},
 {"name":"has space","inputSchema":{"type":"object"}},
 {"name":"","inputSchema":{"type":"object"}},
 {"name":"stringroot","inputSchema":{"type":"string"}},
 {"name":"noschema"},
 {"name":"badschema","inputSchema":{"type":"object","properties":{"a":{"type":12}}}},
 {"name":"wipe","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}},
 {"name":"typed","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}},
 {"name":"hinted","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}
]}`

// denyDestructive is a policy that refuses tools that say they destroy.
func denyDestructive(_ protocol.Implementation, t *protocol.Tool) error {
	if t.Annotations != nil && t.Annotations.DestructiveHint != nil && *t.Annotations.DestructiveHint {
		return errors.New("destructive tools are not allowed here")
	}
	return nil
}

func TestAdmitGate(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			ctx := bounded(t)
			c, f := serveFake(t, e.era, map[string]string{protocol.MethodListTools: gateTools,
				protocol.MethodCallTool: `{"content":[]}`}, &client.Options{Admit: denyDestructive})
			var names []string
			for _, tl := range collect(t, c.Tools(ctx)) {
				names = append(names, tl.Name)
			}
			if want := []string{"good", "has space", "typed"}; !slices.Equal(names, want) {
				t.Fatalf("admitted %q, want %q", names, want)
			}
			refused := map[string]string{}
			warned := map[string]string{}
			for _, fd := range c.Findings() {
				if fd.Gate != "admit" {
					t.Errorf("finding of gate %q", fd.Gate)
				}
				if fd.Refused {
					refused[fd.Item] = fd.Rule
				} else {
					warned[fd.Item] = fd.Rule
				}
			}
			wantRefused := map[string]string{"#3": "tool-name", "stringroot": "input-schema-root", "noschema": "input-schema-missing",
				"badschema": "input-schema-invalid", "wipe": "policy", "hinted": "annotation-hint"}
			if fmt.Sprint(refused) != fmt.Sprint(wantRefused) {
				t.Errorf("refused %v\nwant    %v", refused, wantRefused)
			}
			if fmt.Sprint(warned) != fmt.Sprint(map[string]string{"has space": "tool-name"}) {
				t.Errorf("warned %v", warned)
			}
			n := len(c.Findings())
			collect(t, c.Tools(ctx)) // listed again: nothing new to find
			if again := len(c.Findings()); again != n {
				t.Errorf("listing again made %d findings of %d", again, n)
			}
			_, err := c.CallTool(ctx, "wipe", nil)
			var fd *client.Finding
			if !errors.As(err, &fd) || fd.Rule != "policy" || !strings.Contains(err.Error(), "destructive tools are not allowed") {
				t.Fatalf("calling a refused tool: %v", err)
			}
			if _, err := c.CallTool(ctx, "stringroot", nil); !errors.As(err, &fd) || fd.Rule != "input-schema-root" {
				t.Fatalf("calling a tool the rules refused: %v", err)
			}
			if n := f.count(protocol.MethodCallTool); n != 0 {
				t.Fatalf("the server got %d calls of refused tools", n)
			}
			if _, err := c.CallTool(ctx, "has space", nil); err != nil {
				t.Fatalf("a warned tool is callable: %v", err)
			}
		})
	}
}

func TestAdmitLenient(t *testing.T) {
	c, _ := serveFake(t, protocol.Modern, map[string]string{protocol.MethodListTools: gateTools}, &client.Options{Lenient: true, Admit: denyDestructive})
	// Everything that decodes passes; "hinted" has a string where a boolean
	// goes, so it cannot become a protocol.Tool.
	if got := len(collect(t, c.Tools(bounded(t)))); got != 8 {
		t.Fatalf("lenient admitted %d tools, want 8", got)
	}
	for _, fd := range c.Findings() {
		if fd.Refused && fd.Rule != "descriptor" {
			t.Errorf("lenient refused: %+v", fd)
		}
	}
}

// consumeCases are tools/call results and what the Consume gate says of
// them, for the tool "typed" (outputSchema: an object with integer n).
var consumeCases = []struct {
	name, result string
	rule, path   string // "" : returned
	warning      string // a rule warned of
}{
	{"valid", `{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1}}`, "", "", ""},
	{"schema broken", `{"content":[{"type":"text","text":"{\"n\":\"x\"}"}],"structuredContent":{"n":"x"}}`, "structured-content-schema", "/structuredContent", ""},
	{"structured missing", `{"content":[{"type":"text","text":"hi"}]}`, "structured-content-missing", "", ""},
	{"bad base64", `{"content":[{"type":"image","data":"%%%","mimeType":"image/png"}],"structuredContent":{"n":1}}`, "content-base64", "/content/0/data", ""},
	{"relative uri", `{"content":[{"type":"resource_link","uri":"x/y","name":"y"}],"structuredContent":{"n":1}}`, "content-uri", "/content/0/uri", ""},
	{"no mirror", `{"content":[],"structuredContent":{"n":1}}`, "", "", "structured-text-mirror"},
	{"error result", `{"content":[{"type":"text","text":"boom"}],"isError":true}`, "", "", ""},
}

func TestConsumeGate(t *testing.T) {
	for _, e := range eras[:2] {
		for _, tc := range consumeCases {
			t.Run(e.name+"/"+tc.name, func(t *testing.T) {
				result := tc.result
				if e.era == protocol.Modern {
					result = `{"resultType":"complete",` + result[1:]
				}
				c, _ := serveFake(t, e.era, map[string]string{protocol.MethodListTools: gateTools, protocol.MethodCallTool: result}, nil)
				res, err := c.CallTool(bounded(t), "typed", nil)
				if tc.rule == "" {
					if err != nil || res == nil {
						t.Fatalf("refused a valid result: %v", err)
					}
				} else {
					var fd *client.Finding
					if !errors.As(err, &fd) || fd.Rule != tc.rule || fd.Gate != "consume" || !fd.Refused || !strings.HasPrefix(fd.Path, tc.path) {
						t.Fatalf("got %v (%+v), want a refusal by %s at %s", err, fd, tc.rule, tc.path)
					}
				}
				var warned []string
				for _, fd := range c.Findings() {
					if !fd.Refused {
						warned = append(warned, fd.Rule)
					}
				}
				if tc.warning != "" && !slices.Contains(warned, tc.warning) {
					t.Fatalf("warnings %v, want %s", warned, tc.warning)
				}
			})
		}
	}
}

func TestCallToolAs(t *testing.T) {
	type N struct {
		N int `json:"n"`
	}
	for _, tc := range []struct {
		result string
		want   error
	}{
		{`{"resultType":"complete","content":[{"type":"text","text":"{\"n\":7}"}],"structuredContent":{"n":7}}`, nil},
		{`{"resultType":"complete","content":[{"type":"text","text":"boom"}],"isError":true}`, client.ErrToolFailed},
	} {
		c, _ := serveFake(t, protocol.Modern, map[string]string{protocol.MethodListTools: gateTools, protocol.MethodCallTool: tc.result}, nil)
		n, err := client.CallToolAs[N](bounded(t), c, "typed", nil)
		if !errors.Is(err, tc.want) || (tc.want == nil && n.N != 7) {
			t.Fatalf("CallToolAs = %v, %v; want %v", n, err, tc.want)
		}
		if tc.want != nil && !strings.Contains(err.Error(), "boom") {
			t.Fatalf("a tool's error without its text: %v", err)
		}
	}
}
