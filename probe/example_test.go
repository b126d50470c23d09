package probe_test

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
)

// A file-writing tool made probe-aware: a probe answers its canonical
// patterns, and only a real call writes.
func ExampleWrap() {
	root, _ := probe.NewRoot("/srv/data")
	type args struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	save := tool.Tool{
		Name:        "save",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`),
		Handler: func(ctx context.Context, raw json.RawMessage) (*tool.Result, error) {
			fmt.Println("the handler runs: only on a real call")
			return tool.TextResult("saved"), nil
		},
	}
	save = probe.WrapTyped(save, func(_ context.Context, in args) (probe.Patterns, error) {
		p, err := root.File(probe.Write, in.Path)
		return probe.Patterns{Args: []probe.Pattern{p}}, err
	})

	// A tools/call whose _meta asks for a probe gets the patterns; the
	// handler does not run.
	probeMeta := `{"forge.permission_patterns":true}`
	callTool(save, probeMeta, `{"path":"./notes//todo.txt","content":"x"}`)
	callTool(save, probeMeta, `{"path":"../etc/passwd","content":"x"}`)
	callTool(save, "", `{"path":"notes/todo.txt","content":"x"}`)
	fmt.Println(save.Meta)
	// Output:
	// {"content":[],"_meta":{"forge.always":[],"forge.patterns":["write:notes/todo.txt"]}}
	// {"content":[{"type":"text","text":"path \"../etc/passwd\" is outside the server's root directory; give a path inside it, such as \"notes/todo.txt\""}],"isError":true}
	// the handler runs: only on a real call
	// {"content":[{"type":"text","text":"saved"}]}
	// map[forge.supports_permission_patterns:true]
}

// The server installs Guard as its outermost middleware, so that a probe
// to a tool that cannot answer one is refused before the tool runs.
func ExampleGuard() {
	list := tool.Tool{Name: "list", Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
		fmt.Println("the handler runs")
		return tool.TextResult("listing"), nil
	}}
	callTool(list, `{"forge.permission_patterns":true}`, `{}`)
	// Output:
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"tool \"list\" does not support permission probing; call it without \"forge.permission_patterns\" in _meta"}}
}

func ExampleRoot_File() {
	root, _ := probe.NewRoot("/srv/data")
	for _, p := range []string{"a.txt", "./logs/../a.txt", "/srv/data/reports/q1.csv", "a/../../x"} {
		if pat, err := root.File(probe.Write, p); err != nil {
			fmt.Println(err)
		} else {
			fmt.Println(pat)
		}
	}
	// Output:
	// write:a.txt
	// write:a.txt
	// write:reports/q1.csv
	// path "a/../../x" is outside the server's root directory; give a path inside it, such as "notes/todo.txt"
}

func ExampleURL() {
	for _, u := range []string{"https://API.Example.com/v1", "https://api.example.com:443/v2", "http://[::1]:8080/"} {
		p, _ := probe.URL(u)
		fmt.Println(p)
	}
	// Output:
	// net:api.example.com:443
	// net:api.example.com:443
	// net:[::1]:8080
}

func ExampleCommand() {
	p, _ := probe.Command("/usr/bin/../bin/git")
	fmt.Println(p)
	_, err := probe.Command("./build.sh")
	fmt.Println(err)
	// Output:
	// exec:/usr/bin/git
	// program "./build.sh" is a relative path; give a name looked up in PATH or an absolute path
}

func ExampleParse() {
	for _, s := range []string{"write:notes/todo.txt", "write:./todo.txt", "net:Example.com:443", "copy:a"} {
		_, err := probe.Parse(s)
		fmt.Println(s, "->", err)
	}
	// Output:
	// write:notes/todo.txt -> <nil>
	// write:./todo.txt -> path "./todo.txt" is not clean; write it as "todo.txt"
	// net:Example.com:443 -> net target "Example.com:443" is not canonical; write it as "example.com:443"
	// copy:a -> pattern "copy:a": unknown verb "copy"; use one of read, write, delete, exec, net
}

func ExamplePatterns_Meta() {
	ps := probe.Patterns{
		Args:   []probe.Pattern{probe.MustParse("write:b.txt"), probe.MustParse("write:a.txt"), probe.MustParse("write:b.txt")},
		Always: []probe.Pattern{probe.MustParse("net:api.example.com:443")},
	}
	b, _ := json.Marshal(ps.Meta())
	fmt.Println(string(b))
	// Output:
	// {"forge.always":["net:api.example.com:443"],"forge.patterns":["write:a.txt","write:b.txt"]}
}
