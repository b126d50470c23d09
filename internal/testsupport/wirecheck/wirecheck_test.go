package wirecheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// schemaDir is the repository's copy of the official schemas.
const schemaDir = "../../../testdata/schema"

var (
	loadOnce sync.Once
	loaded   *Checker
	loadErr  error
)

// checker returns the Checker shared by the tests, so each schema compiles
// once per test binary.
func checker(t *testing.T) *Checker {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = Load(schemaDir) })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

var (
	legacy = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
	all    = append(legacy[:len(legacy):len(legacy)], "2026-07-28")
)

// wantResult checks err against want: "" means no error; otherwise err must
// be an *Error whose text contains want.
func wantResult(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var we *Error
	if !errors.As(err, &we) {
		t.Fatalf("got %v, want an *Error containing %q", err, want)
	}
	if len(we.Problems) == 0 {
		t.Fatalf("*Error without problems: %v", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

func TestLoad(t *testing.T) {
	c := checker(t)
	if got := strings.Join(c.Revisions(), " "); got != strings.Join(all, " ") {
		t.Fatalf("Revisions() = %s, want %s", got, strings.Join(all, " "))
	}

	empty := t.TempDir()
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "2025-01-01"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "2025-01-01", "schema.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{"missing": filepath.Join(empty, "nope"), "empty": empty, "not JSON": bad} {
		if _, err := Load(dir); err == nil {
			t.Errorf("%s: Load succeeded, want an error", name)
		}
	}
}

func TestDefinitionUnknown(t *testing.T) {
	c := checker(t)
	if err := c.Definition("1999-01-01", "Tool", []byte(`{}`)); err == nil || errors.As(err, new(*Error)) {
		t.Errorf("unknown revision: got %v, want a plain error", err)
	}
	if err := c.Definition("2025-06-18", "NoSuchThing", []byte(`{}`)); err == nil || errors.As(err, new(*Error)) {
		t.Errorf("unknown definition: got %v, want a plain error", err)
	}
	wantResult(t, c.Definition("2025-06-18", "Tool", []byte(`{"name":`)), "not JSON")
	wantResult(t, c.Definition("2025-06-18", "Tool", []byte(`{} {}`)), "not JSON")
}

const (
	tool      = `{"name":"echo","inputSchema":{"type":"object"}}`
	toolTitle = `{"name":"echo","title":"Echo","inputSchema":{"type":"object"}}`
	toolIcons = `{"name":"echo","icons":[{"src":"https://example.com/e.png","sizes":["48x48"]}],"inputSchema":{"type":"object"}}`
	// a tool schema with keywords the 2024-11-05 schema does not list
	toolRichSchema = `{"name":"echo","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"s":{"type":"string","minLength":1}},"required":["s"],"additionalProperties":false}}`

	textResult       = `{"content":[{"type":"text","text":"hi"}]}`
	structuredResult = `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"any":{"thing":[1,2]}}}`
	audioResult      = `{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}`
	modernText       = `{"resultType":"complete","content":[{"type":"text","text":"hi"}]}`
)

func TestDefinition(t *testing.T) {
	c := checker(t)
	type tc struct {
		name, rev, def, instance, want string
	}
	var cases []tc
	for _, rev := range all {
		cases = append(cases, tc{"plain tool", rev, "Tool", tool, ""})
	}
	cases = append(cases,
		tc{"title before 2025-06-18", "2024-11-05", "ListToolsResult", `{"tools":[` + toolTitle + `]}`,
			`/tools/0/title: key "title" is not defined by 2024-11-05 Tool`},
		tc{"title before 2025-06-18", "2025-03-26", "Tool", toolTitle, `/title: key "title" is not defined by 2025-03-26 Tool`},
		tc{"title from 2025-06-18", "2025-06-18", "ListToolsResult", `{"tools":[` + toolTitle + `]}`, ""},
		tc{"title from 2025-06-18", "2026-07-28", "Tool", toolTitle, ""},

		tc{"icons before 2025-11-25", "2024-11-05", "Tool", toolIcons, `key "icons" is not defined by 2024-11-05 Tool`},
		tc{"icons before 2025-11-25", "2025-03-26", "Tool", toolIcons, `key "icons" is not defined by 2025-03-26 Tool`},
		tc{"icons before 2025-11-25", "2025-06-18", "Tool", toolIcons, `key "icons" is not defined by 2025-06-18 Tool`},
		tc{"icons from 2025-11-25", "2025-11-25", "Tool", toolIcons, ""},
		tc{"icons from 2025-11-25", "2026-07-28", "Tool", toolIcons, ""},
		tc{"unknown key in an icon", "2025-11-25", "Tool",
			`{"name":"echo","icons":[{"src":"https://example.com/e.png","dpi":2}],"inputSchema":{"type":"object"}}`,
			`/icons/0/dpi: key "dpi" is not defined by 2025-11-25 Icon`},

		tc{"structuredContent before 2025-06-18", "2025-03-26", "CallToolResult", structuredResult,
			`/structuredContent: key "structuredContent" is not defined by 2025-03-26 CallToolResult`},
		tc{"structuredContent is open from 2025-06-18", "2025-06-18", "CallToolResult", structuredResult, ""},

		tc{"audio is no content block in 2024-11-05", "2024-11-05", "CallToolResult", audioResult, "/content/0: Value does not match anyOf schema"},
		tc{"audio from 2025-03-26", "2025-03-26", "CallToolResult", audioResult, ""},
		tc{"unknown key in a content block", "2025-03-26", "CallToolResult",
			`{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav","seconds":3}]}`,
			`/content/0/seconds: key "seconds" is not defined by 2025-03-26 AudioContent`},
		tc{"wrong type in a content block", "2025-06-18", "CallToolResult", `{"content":[{"type":"text","text":5}]}`, "/content/0"},

		tc{"legacy result without resultType", "2025-11-25", "CallToolResult", textResult, ""},
		tc{"legacy rejects resultType", "2025-11-25", "CallToolResult", modernText,
			`key "resultType" is not defined by 2025-11-25 CallToolResult`},
		tc{"modern result without resultType", "2026-07-28", "CallToolResult", textResult, "Required property 'resultType' is missing"},
		tc{"modern result", "2026-07-28", "CallToolResult", modernText, ""},

		tc{"anyOf: the branch that declares the keys wins", "2026-07-28", "CallToolResultResponse",
			`{"jsonrpc":"2.0","id":1,"result":` + modernText + `}`, ""},
		tc{"anyOf: no branch declares the keys", "2026-07-28", "CallToolResultResponse",
			`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"extra":1}}`,
			`/result/extra: key "extra" is not defined by 2026-07-28`},

		tc{"tool schemas are open", "2024-11-05", "Tool", toolRichSchema, ""},
		tc{"tool schemas are open", "2026-07-28", "Tool", toolRichSchema, ""},
		tc{"_meta is open", "2026-07-28", "CallToolResult",
			`{"resultType":"complete","content":[],"_meta":{"com.example/trace":"x","io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`, ""},
		tc{"declared keys inside _meta are still checked", "2026-07-28", "CallToolResult",
			`{"resultType":"complete","content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1","build":7}}}`,
			`/_meta/io.modelcontextprotocol~1serverInfo/build: key "build" is not defined by 2026-07-28 Implementation`},
		tc{"_meta is open in 2024-11-05", "2024-11-05", "CallToolResult", `{"content":[],"_meta":{"progressToken":1,"x":{"y":1}}}`, ""},

		tc{"declared capability", "2024-11-05", "ServerCapabilities", `{"tools":{"listChanged":true},"logging":{}}`, ""},
		tc{"undeclared capability key", "2024-11-05", "ServerCapabilities", `{"tools":{"listChanged":true,"paged":true}}`,
			`/tools/paged: key "paged" is not defined by 2024-11-05 ServerCapabilities.tools`},
		tc{"undeclared capability", "2024-11-05", "ServerCapabilities", `{"completions":{}}`,
			`/completions: key "completions" is not defined by 2024-11-05 ServerCapabilities`},
		tc{"open capabilities", "2025-06-18", "ServerCapabilities",
			`{"logging":{"anything":1},"completions":{"x":[]},"experimental":{"com.example/x":{"deep":{"er":true}}}}`, ""},
		tc{"open capabilities", "2026-07-28", "ServerCapabilities",
			`{"logging":{"anything":1},"extensions":{"io.modelcontextprotocol/tasks":{"x":1}}}`, ""},
	)
	for _, tc := range cases {
		t.Run(tc.rev+"/"+tc.name, func(t *testing.T) {
			wantResult(t, c.Definition(tc.rev, tc.def, []byte(tc.instance)), tc.want)
		})
	}
}

// serverInfo is the initialize result's serverInfo, and the discover
// result's _meta serverInfo.
const serverInfo = `{"name":"mcpwire-test","version":"0.1.0"}`

func TestServerMessage(t *testing.T) {
	c := checker(t)
	type tc struct {
		name, rev, method, line, want string
	}
	// title on a Tool is defined from 2025-06-18.
	titleWant := map[string]string{
		"2024-11-05": `/result/tools/0/title: key "title" is not defined by 2024-11-05 Tool`,
		"2025-03-26": `/result/tools/0/title: key "title" is not defined by 2025-03-26 Tool`,
	}
	var cases []tc
	for _, rev := range legacy {
		cases = append(cases,
			tc{"initialize", rev, "initialize", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"` + rev + `","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":` + serverInfo + `,"instructions":"hi"}}`, ""},
			tc{"ping", rev, "ping", `{"jsonrpc":"2.0","id":"p","result":{}}` + "\n", ""},
			tc{"tools/list", rev, "tools/list", `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + tool + `],"nextCursor":"c"}}`, ""},
			tc{"tools/call", rev, "tools/call", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"x"}],"isError":false}}`, ""},
			tc{"logging/setLevel", rev, "logging/setLevel", `{"jsonrpc":"2.0","id":3,"result":{}}`, ""},
			tc{"resources/list", rev, "resources/list", `{"jsonrpc":"2.0","id":4,"result":{"resources":[{"uri":"file:///a","name":"a"}]}}`, ""},
			tc{"prompts/list", rev, "prompts/list", `{"jsonrpc":"2.0","id":5,"result":{"prompts":[{"name":"p"}]}}`, ""},
			tc{"error", rev, "tools/call", `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"bad","data":{"any":["thing"]}}}`, ""},
			tc{"progress", rev, "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"total":2}}`, ""},
			tc{"log message", rev, "", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"l","data":{"k":"v"}}}`, ""},
			tc{"tools changed", rev, "", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, ""},
			tc{"cancelled", rev, "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"gone"}}`, ""},
			tc{"server ping", rev, "", `{"jsonrpc":"2.0","id":"s1","method":"ping"}`, ""},
			tc{"tool title", rev, "tools/list", `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + toolTitle + `]}}`, titleWant[rev]},
		)
	}
	modern := "2026-07-28"
	cases = append(cases,
		tc{"discover", modern, "server/discover", `{"jsonrpc":"2.0","id":"d","result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":` + serverInfo + `}}}`, ""},
		tc{"discover without ttlMs", modern, "server/discover", `{"jsonrpc":"2.0","id":"d","result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"cacheScope":"public"}}`, "Required property 'ttlMs' is missing"},
		tc{"listen ended", modern, "subscriptions/listen", `{"jsonrpc":"2.0","id":"l","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"l"}}}`, ""},
		tc{"acknowledged", modern, "", `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"l"},"notifications":{"toolsListChanged":true}}}`, ""},
		tc{"tools/list", modern, "tools/list", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[` + toolIcons + `],"ttlMs":60000,"cacheScope":"private"}}`, ""},
		tc{"tools/call", modern, "tools/call", `{"jsonrpc":"2.0","id":2,"result":` + modernText + `}`, ""},
		tc{"tools/call without resultType", modern, "tools/call", `{"jsonrpc":"2.0","id":2,"result":` + textResult + `}`, "/result: Required property 'resultType' is missing"},
		tc{"tools/call needs input", modern, "tools/call", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","requestState":"abc"}}`, ""},
		tc{"input_required is checked as InputRequiredResult", modern, "tools/call", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","content":[]}}`,
			`/result/content: key "content" is not defined by 2026-07-28 InputRequiredResult`},
		tc{"complete is checked as CallToolResult", modern, "tools/call", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","requestState":"abc"}}`,
			"Required property 'content' is missing"},
		tc{"progress", modern, "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}`, ""},
		tc{"error", modern, "tools/call", `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"bad"}}`, ""},
		tc{"no ping in 2026", modern, "ping", `{"jsonrpc":"2.0","id":"p","result":{"resultType":"complete"}}`, `revision 2026-07-28 defines no method "ping"`},
		tc{"no server requests in 2026", modern, "", `{"jsonrpc":"2.0","id":"s1","method":"ping"}`, "defines no requests from server to client"},

		// What changed between revisions.
		tc{"progress message before 2025-03-26", "2024-11-05", "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"message":"m"}}`,
			`/params/message: key "message" is not defined by 2024-11-05 ProgressNotification.params`},
		tc{"progress message from 2025-03-26", "2025-03-26", "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"message":"m"}}`, ""},
		tc{"no discover before 2026", "2025-11-25", "server/discover", `{"jsonrpc":"2.0","id":"d","result":{}}`, `revision 2025-11-25 defines no method "server/discover"`},
		tc{"no acknowledged before 2026", "2025-11-25", "", `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{}}`, `defines no server notification "notifications/subscriptions/acknowledged"`},
		tc{"no audio before 2025-03-26", "2024-11-05", "tools/call", `{"jsonrpc":"2.0","id":2,"result":` + audioResult + `}`, "/result/content/0: Value does not match anyOf schema"},

		// Error responses without an id: the schema decides.
		tc{"error without id", "2024-11-05", "", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`, "Required property 'id' is missing"},
		tc{"error without id", "2025-03-26", "", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`, "Required property 'id' is missing"},
		tc{"error without id", "2025-06-18", "", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`, "Required property 'id' is missing"},
		tc{"error without id", "2025-11-25", "", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`, ""},
		tc{"error without id", modern, "", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`, ""},
		tc{"error with null id", "2025-11-25", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, "/id"},

		// Broken envelopes.
		tc{"wrong jsonrpc", "2025-06-18", "ping", `{"jsonrpc":"1.0","id":1,"result":{}}`, "/jsonrpc: Value does not match the constant value"},
		tc{"no jsonrpc", "2025-06-18", "ping", `{"id":1,"result":{}}`, "Required property 'jsonrpc' is missing"},
		tc{"extra envelope key", "2025-06-18", "ping", `{"jsonrpc":"2.0","id":1,"result":{},"extra":true}`, `/extra: key "extra" is not defined by 2025-06-18 JSONRPCResponse`},
		tc{"result and error", modern, "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]},"error":{"code":1,"message":"m"}}`, `/result: key "result" is not defined by 2026-07-28 JSONRPCErrorResponse`},
		tc{"extra error key", "2024-11-05", "ping", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","detail":"d"}}`, `/error/detail: key "detail" is not defined by 2024-11-05 JSONRPCError.error`},
		tc{"fractional id", "2025-06-18", "ping", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, "/id"},
		tc{"no method, result or error", "2025-06-18", "ping", `{"jsonrpc":"2.0","id":1}`, `no "method", "result" or "error"`},
		tc{"not an object", "2025-06-18", "ping", `"hello"`, "neither an object nor an array"},
		tc{"not JSON", "2025-06-18", "ping", `{"jsonrpc":`, "not JSON"},
		tc{"embedded newline", "2025-06-18", "ping", "{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{}}", "must not contain a newline"},
		tc{"unknown method", "2025-06-18", "tools/frobnicate", `{"jsonrpc":"2.0","id":1,"result":{}}`, `unknown request method "tools/frobnicate"`},
		tc{"no method for id", "2025-06-18", "", `{"jsonrpc":"2.0","id":1,"result":{}}`, "no request method known for id 1"},
		tc{"unknown notification", "2025-06-18", "", `{"jsonrpc":"2.0","method":"notifications/frobnicated"}`, `unknown server notification method "notifications/frobnicated"`},
		tc{"client notification", "2025-06-18", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `unknown server notification method "notifications/initialized"`},

		// Batches exist in 2025-03-26 only.
		tc{"batch", "2025-03-26", "ping", `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}]`, ""},
		tc{"batch element checked", "2025-03-26", "tools/list", `[{"jsonrpc":"2.0","id":1,"result":{"tools":[` + toolTitle + `]}}]`,
			`/0/result/tools/0/title: key "title" is not defined by 2025-03-26 Tool`},
		tc{"batch envelope checked", "2025-03-26", "ping", `[{"jsonrpc":"2.0","id":1,"result":{},"x":1}]`, `/0/x: key "x" is not defined by 2025-03-26 JSONRPCResponse`},
		tc{"no batch in 2024-11-05", "2024-11-05", "ping", `[{"jsonrpc":"2.0","id":1,"result":{}}]`, "a batch (JSON array) is not a message of revision 2024-11-05"},
		tc{"no batch in 2025-06-18", "2025-06-18", "ping", `[{"jsonrpc":"2.0","id":1,"result":{}}]`, "not a message of revision 2025-06-18"},
	)
	for _, tc := range cases {
		t.Run(tc.rev+"/"+tc.name, func(t *testing.T) {
			wantResult(t, c.ServerMessage(tc.rev, tc.method, []byte(tc.line)), tc.want)
		})
	}
}

func TestServerMessageFunc(t *testing.T) {
	c := checker(t)
	methods := map[string]string{`1`: "ping", `"two"`: "tools/list"}
	methodOf := func(id []byte) string { return methods[string(id)] }
	batch := `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"two","result":{"tools":[]}}]`
	wantResult(t, c.ServerMessageFunc("2025-03-26", methodOf, []byte(batch)), "")
	bad := `[{"jsonrpc":"2.0","id":"two","result":{}}]`
	wantResult(t, c.ServerMessageFunc("2025-03-26", methodOf, []byte(bad)), "/0/result: Required property 'tools' is missing")
	if err := c.ServerMessage("1999-01-01", "ping", []byte(`{}`)); err == nil || errors.As(err, new(*Error)) {
		t.Errorf("unknown revision: got %v, want a plain error", err)
	}
}

func TestMethods(t *testing.T) {
	c := checker(t)
	defined := make(map[Method]bool)
	for _, rev := range c.Revisions() {
		for _, m := range c.MethodsOf(rev) {
			defined[m] = true
		}
	}
	for _, m := range Methods() {
		if !defined[m] {
			t.Errorf("%+v is defined by no loaded revision", m)
		}
	}
	has := func(rev, name string, kind Kind) bool {
		for _, m := range c.MethodsOf(rev) {
			if m.Name == name && m.Kind == kind {
				return true
			}
		}
		return false
	}
	for _, want := range []struct {
		rev, name string
		kind      Kind
		ok        bool
	}{
		{"2024-11-05", "initialize", ClientRequest, true},
		{"2026-07-28", "initialize", ClientRequest, false},
		{"2026-07-28", "server/discover", ClientRequest, true},
		{"2025-11-25", "server/discover", ClientRequest, false},
		{"2025-06-18", "elicitation/create", ServerRequest, true},
		{"2025-03-26", "elicitation/create", ServerRequest, false},
		{"2025-11-25", "ping", ServerRequest, true},
		{"2026-07-28", "ping", ServerRequest, false},
		{"2026-07-28", "notifications/subscriptions/acknowledged", ServerNotification, true},
	} {
		if got := has(want.rev, want.name, want.kind); got != want.ok {
			t.Errorf("%s %s (kind %d) defined = %v, want %v", want.rev, want.name, want.kind, got, want.ok)
		}
	}
	m := Methods()
	m[0].Name = "changed"
	if Methods()[0].Name == "changed" {
		t.Error("Methods returned its table, not a copy")
	}
	if c.MethodsOf("1999-01-01") != nil {
		t.Error("MethodsOf an unknown revision is not nil")
	}
}

// knownBadExamples are official 2026-07-28 examples that fail. Each entry
// says why; if the spec fixes one, the test reports it so the entry goes.
var knownBadExamples = map[string]string{
	// ListRootsRequest is, in 2026-07-28, a request embedded in an
	// InputRequiredResult, with no JSON-RPC id; the example still has one.
	"ListRootsRequest/list-roots-request.json": `/id: key "id" is not defined by 2026-07-28 ListRootsRequest`,
	// ReadResourceResult requires ttlMs and cacheScope; this example lacks
	// both, so it only validates as the InputRequiredResult branch of the
	// response, which does not declare "contents".
	"ReadResourceResultResponse/read-resource-result-response.json": `/result/contents: key "contents" is not defined by 2026-07-28 InputRequiredResult`,
}

// TestOfficialExamples validates every official 2026-07-28 example against
// the definition its directory is named after.
func TestOfficialExamples(t *testing.T) {
	c := checker(t)
	root := filepath.Join(schemaDir, "2026-07-28", "examples")
	files, err := filepath.Glob(filepath.Join(root, "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found %d examples under %s, want the official set", len(files), root)
	}
	for _, f := range files {
		name := filepath.ToSlash(strings.TrimPrefix(f, root+string(filepath.Separator)))
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			wantResult(t, c.Definition("2026-07-28", filepath.Base(filepath.Dir(f)), data), knownBadExamples[name])
		})
	}
}

// TestConcurrent checks, under -race, that one fresh Checker serves
// concurrent callers while it compiles.
func TestConcurrent(t *testing.T) {
	c, err := Load(schemaDir)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		rev := all[i%len(all)]
		wg.Go(func() {
			line := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`
			if err := c.ServerMessage(rev, "", []byte(line)); err != nil {
				t.Errorf("%s: %v", rev, err)
			}
			if err := c.Definition(rev, "Tool", []byte(toolTitle)); (err == nil) != (rev >= "2025-06-18") {
				t.Errorf("%s: title: %v", rev, err)
			}
		})
	}
	wg.Wait()
}
