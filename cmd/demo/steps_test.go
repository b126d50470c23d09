package main

import "testing"

// The most lines the demo may print: by default, and with -all, with the
// Go source of the tools the steps call (at most maxSourceLines each).
const (
	maxLinesDefault = 62 + 4*(maxSourceLines+1)
	maxLinesAll     = 95 + 5*(maxSourceLines+1)
)

// want is a line a step must show: one of its own starting with prefix
// ("→ ", "← " or "" for any line) and containing text.
type want struct{ prefix, text string }

// stepWants is what each step must show, in this order, by the name of
// the session method that runs it.
var stepWants = map[string][]want{
	"handshake": {{"→ ", `"method":"initialize","params":{"protocolVersion":"2025-11-25"`},
		{"← ", `"result":{"protocolVersion":"2025-11-25"`},
		{"→ ", `"method":"notifications/initialized"`}},
	"listTools": {{"→ ", `"method":"tools/list"`},
		{"← ", `"tools":[{"name":"echo",`},
		{"← ", `"inputSchema":{"type":"object","properties":{"text":{"type":"string"`},
		{"← ", "more bytes)"}},
	"typedCalls": {{"", "Go, cmd/everything/tools.go:"}, {"", "func(_ context.Context, in echoArgs) (*tool.Result, error) {"},
		{"→ ", `"name":"echo","arguments":{"text":"héllo ✓"}`},
		{"← ", `"text":"héllo ✓"`},
		{"→ ", `"arguments":{"text":42}`},
		{"← ", `invalid arguments for tool echo`},
		{"← ", `"isError":true`}},
	"whileRunning": {{"", `Name:        "test_logging_tool",`}, {"", "mcp.ReportProgress(ctx,"},
		{"→ ", `"method":"logging/setLevel"`},
		{"← ", `"method":"notifications/message","params":{"level":"error"`},
		{"← ", `"method":"notifications/progress"`},
		{"← ", `"method":"notifications/progress"`},
		{"→ ", `"method":"notifications/cancelled"`},
		{"", "a cancelled call gets no response"}},
	"errorClasses": {{"→ ", "this is not json"}, {"← ", `"code":-32700`},
		{"→ ", `"jsonrpc":"1.0"`}, {"← ", `"code":-32600`},
		{"→ ", `"no/such/method"`}, {"← ", `"code":-32601`},
		{"→ ", `"no_such_tool"`}, {"← ", `"code":-32602`},
		{"→ ", `"name":"panic"`}, {"← ", `"code":-32603`}},
	"resourcesAndPrompts": {{"→ ", `"method":"resources/read","params":{"uri":"test://static-text"}`},
		{"← ", `"text":"This is the content of the static text resource."`},
		{"→ ", `"method":"prompts/get","params":{"name":"deployment_review","arguments":{"environment":"staging"}}`},
		{"← ", `"messages":[{"role":"user","content":{"type":"text","text":"Review the deployment to staging`},
		{"→ ", `"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"deployment_review"}`},
		{"← ", `"completion":{"values":["development","staging"],"total":2}`}},
	"elicitLegacy": {{"→ ", `"name":"test_input_required_result_elicitation"`},
		{"← ", `"method":"elicitation/create","params":{"message":"What is your name?"`},
		{"→ ", `"result":{"action":"accept","content":{"name":"Ada"}}`},
		{"← ", `"text":"Hello, Ada!"`}},
	"discoverAndRead": {{"→ ", `"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"`},
		{"← ", `"supportedVersions":["2026-07-28"`},
		{"→ ", `"method":"resources/read","params":{"uri":"test://template/42/data","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"`},
		{"← ", `"resultType":"complete"`},
		{"← ", `"ttlMs":60000,"cacheScope":"private","contents":[{"uri":"test://template/42/data","mimeType":"application/json","text":"{\"id\":\"42\",\"templateTest\":true`}},
	"elicitModern": {{"→ ", `"name":"test_input_required_result_elicitation","arguments":{},"_meta"`},
		{"← ", `"inputRequests":{"user_name":{"method":"elicitation/create"`},
		{"→ ", `"inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":`},
		{"← ", `"resultType":"complete","content":[{"type":"text","text":"Hello, Ada!"}]`}},
	"taskPolled": {{"→ ", `"method":"tools/call","params":{"name":"slow_compute"`},
		{"← ", `"resultType":"task"`},
		{"→ ", `"method":"tasks/get","params":{"taskId":"(random)"`},
		{"← ", `"status":"completed"`},
		{"← ", `"result":{"resultType":"complete","content":[{"type":"text","text":"Computed demo in 0.2s"}]`}},
	"listenAndShutdown": {{"→ ", `"method":"subscriptions/listen"`},
		{"← ", `"method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://static-text"]},"_meta":{"io.modelcontextprotocol/subscriptionId":`},
		{"→ ", "(closes stdin)"},
		{"← ", `"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`},
		{"← ", "(exits with status 0)"}},
	"httpModern": {{"→ ", "POST /mcp  MCP-Protocol-Version: 2026-07-28 · Mcp-Method: tools/call · Mcp-Name: test_tool_with_progress"},
		{"← ", "200 text/event-stream"},
		{"← ", `"method":"notifications/progress"`},
		{"← ", `"resultType":"complete"`}},
	"httpLegacy": {{"→ ", `"method":"initialize"`},
		{"← ", "200 application/json · Mcp-Session-Id: (32 random hex digits)"},
		{"→ ", "DELETE /mcp  Mcp-Session-Id: (32 random hex digits)"},
		{"← ", "204"},
		{"← ", "(exits with status 0)"}},
	"httpSignIn": {{"→ ", "signin: registered method=none"},
		{"→ ", "signin: authorization request"},
		{"→ ", "signin: signed in type=Bearer"},
		{"← ", `tools/call echo {text: "signed in"} with the token → signed in`},
		{"← ", "(exits with status 0)"}},
}

// demoModes are the two runs: what each must show, step by step, and
// what the default run must not.
var demoModes = []struct {
	name     string
	opts     options
	maxLines int
	steps    []string // keys of stepWants, in order: every step the run has
	heads    []string // headings and remarks the output must have
	absent   []string // what the output must not have
}{
	{
		name: "default", maxLines: maxLinesDefault,
		steps: []string{"handshake", "listTools", "typedCalls", "whileRunning", "errorClasses",
			"discoverAndRead", "taskPolled", "listenAndShutdown"},
		heads:  []string{"-all adds elicitation, resources/prompts and HTTP", "Legacy era (2025-11-25)", "Modern era (2026-07-28), same process"},
		absent: []string{"elicitation/create", "prompts/get", "completion/complete", "Streamable HTTP", "POST /mcp"},
	},
	{
		name: "all", opts: options{all: true}, maxLines: maxLinesAll,
		steps: []string{"handshake", "listTools", "typedCalls", "whileRunning", "errorClasses",
			"resourcesAndPrompts", "elicitLegacy", "discoverAndRead", "elicitModern", "taskPolled", "listenAndShutdown",
			"httpModern", "httpLegacy", "httpSignIn"},
		heads: []string{"-all: every step", "Legacy era (2025-11-25)", "Modern era (2026-07-28), same process", "Streamable HTTP: the same binary",
			"Sign-in: the same binary with -http 127.0.0.1:0 -auth dev"},
	},
}

// TestStepTables checks what runScript relies on: the last stdio step,
// which ends the server process, is in the default set, and so is every
// step whose heading opens an era the default run shows (else the
// heading would be lost).
func TestStepTables(t *testing.T) {
	if !steps[len(steps)-1].inDefault {
		t.Error("the last stdio step is not in the default set: the default run would not end the server")
	}
	for _, table := range [][]step{steps, httpSteps} {
		for i, st := range table {
			for j := i + 1; st.era != "" && !st.inDefault && j < len(table) && table[j].era == ""; j++ {
				if table[j].inDefault {
					t.Errorf("%q opens an era but is not in the default set, and %q of that era is", st.caption, table[j].caption)
				}
			}
		}
	}
	for _, st := range httpSteps {
		if st.inDefault {
			t.Errorf("the HTTP step %q is in the default set", st.caption)
		}
	}
	if got, want := len(selected(steps, false))+len(selected(httpSteps, false)), len(demoModes[0].steps); got != want {
		t.Errorf("the default set has %d steps, the test knows %d", got, want)
	}
	if got, want := len(selected(steps, true))+len(selected(httpSteps, true)), len(demoModes[1].steps); got != want {
		t.Errorf("-all has %d steps, the test knows %d", got, want)
	}
}
