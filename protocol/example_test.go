package protocol_test

import (
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
)

func ExampleCallToolRequestParams() {
	params := `{
		"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
		         "io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},
		         "progressToken":7,
		         "traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
		"name":"get_weather","arguments":{"location":"New York"}}`
	var p protocol.CallToolRequestParams
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		fmt.Println(err)
		return
	}
	meta := p.Meta
	fmt.Println("version:", meta.ProtocolVersion)
	fmt.Println("elicitation:", meta.ClientCapabilities.Elicitation != nil)
	fmt.Println("progress token:", meta.ProgressToken)
	fmt.Println("other _meta keys:", len(meta.Other))
	fmt.Printf("%s(%s)\n", p.Name, p.Arguments)
	// Output:
	// version: 2026-07-28
	// elicitation: true
	// progress token: 7
	// other _meta keys: 1
	// get_weather({"location":"New York"})
}

func ExampleCallToolResult() {
	isError := false
	res := protocol.Outcome[protocol.CallToolResult]{Result: &protocol.CallToolResult{
		Envelope: protocol.Envelope{
			ResultType: protocol.ResultTypeComplete,
			Meta:       &protocol.ResultMeta{ServerInfo: &protocol.Implementation{Name: "demo", Version: "1.0.0"}},
		},
		Content:           []protocol.ContentBlock{protocol.TextBlock(`[1,2]`)},
		StructuredContent: json.RawMessage(`[1,2]`),
		IsError:           &isError,
	}}
	out, err := json.Marshal(res)
	fmt.Println(string(out), err)
	// Output:
	// {"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"demo","version":"1.0.0"}},"content":[{"type":"text","text":"[1,2]"}],"structuredContent":[1,2],"isError":false} <nil>
}

func ExampleListToolsResult() {
	res := protocol.ListToolsResult{
		Envelope:   protocol.Envelope{ResultType: protocol.ResultTypeComplete},
		CacheHints: protocol.CacheHints{TTLMs: protocol.TTL(time.Minute), CacheScope: protocol.CacheScopePublic},
		Tools: []protocol.Tool{{
			Name:        "now",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		}},
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))

	// A server with no tools still sends an array.
	out, _ = json.Marshal(protocol.ListToolsResult{
		Envelope:   protocol.Envelope{ResultType: protocol.ResultTypeComplete},
		CacheHints: protocol.CacheHints{TTLMs: protocol.TTL(0), CacheScope: protocol.CacheScopePublic},
	})
	fmt.Println(string(out))
	// Output:
	// {"resultType":"complete","ttlMs":60000,"cacheScope":"public","tools":[{"name":"now","inputSchema":{"type":"object","additionalProperties":false}}]}
	// {"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[]}
}

func ExampleContentBlock() {
	content := `[
		{"type":"text","text":"see the file"},
		{"type":"resource_link","uri":"file:///project/main.rs","name":"main.rs"},
		{"type":"resource","resource":{"uri":"file:///logo.png","blob":"iVBORw0KGgo=","mimeType":"image/png"}}
	]`
	var blocks []protocol.ContentBlock
	if err := json.Unmarshal([]byte(content), &blocks); err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			fmt.Println("text:", b.Text.Text)
		case b.ResourceLink != nil:
			fmt.Println("link:", b.ResourceLink.URI)
		case b.Resource != nil && b.Resource.Resource.Blob != nil:
			fmt.Println("blob:", b.Resource.Resource.Blob.MimeType)
		}
	}

	var b protocol.ContentBlock
	fmt.Println(json.Unmarshal([]byte(`{"type":"video","data":""}`), &b))
	// Output:
	// text: see the file
	// link: file:///project/main.rs
	// blob: image/png
	// protocol: unknown content block type "video"
}

func ExampleOutcome() {
	result := `{"resultType":"input_required",
		"inputRequests":{"login":{"method":"elicitation/create","params":{
			"message":"GitHub username?",
			"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}},
		"requestState":"opaque"}`
	var o protocol.Outcome[protocol.CallToolResult]
	if err := json.Unmarshal([]byte(result), &o); err != nil {
		fmt.Println(err)
		return
	}
	if in := o.InputRequired; in != nil {
		form := in.InputRequests["login"].Elicit.Form
		fmt.Println("asks:", form.Message, form.RequestedSchema.Required)
		fmt.Println("field is a string:", form.RequestedSchema.Properties["name"].String != nil)
		fmt.Println("state:", in.RequestState)
	}

	// The client retries with the answer under the same key.
	retry := protocol.CallToolRequestParams{
		Meta: protocol.RequestMeta{ProtocolVersion: protocol.Version, ClientCapabilities: &protocol.ClientCapabilities{
			Elicitation: &protocol.ElicitationCapability{}}},
		Name: "whoami",
		InputResponses: protocol.InputResponses{"login": {Elicit: &protocol.ElicitResult{
			Action: protocol.ElicitAccept, Content: protocol.Object{"name": json.RawMessage(`"octocat"`)}}}},
		RequestState: o.InputRequired.RequestState,
	}
	out, _ := json.Marshal(retry)
	fmt.Println(string(out))
	// Output:
	// asks: GitHub username? [name]
	// field is a string: true
	// state: opaque
	// {"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}},"name":"whoami","inputResponses":{"login":{"action":"accept","content":{"name":"octocat"}}},"requestState":"opaque"}
}

func ExampleGetTaskResult() {
	// A tools/call that became a task answers a CreateTaskResult ...
	created := `{"resultType":"task","taskId":"dGFzay1vbmU","status":"working",
		"createdAt":"2026-07-28T10:00:00.000Z","lastUpdatedAt":"2026-07-28T10:00:00.000Z",
		"ttlMs":3600000,"pollIntervalMs":500}`
	var c protocol.CreateTaskResult
	if err := json.Unmarshal([]byte(created), &c); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.ResultType, c.TaskID, c.Status, "poll every", *c.PollIntervalMs, "ms")

	// ... and tasks/get, once it completed, inlines the tool's result.
	got := `{"resultType":"complete","taskId":"dGFzay1vbmU","status":"completed",
		"createdAt":"2026-07-28T10:00:00.000Z","lastUpdatedAt":"2026-07-28T10:00:02.000Z","ttlMs":3600000,
		"result":{"resultType":"complete","content":[{"type":"text","text":"42"}]}}`
	var g protocol.GetTaskResult
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		fmt.Println(err)
		return
	}
	if g.Status == task.Completed {
		var res protocol.CallToolResult
		if err := json.Unmarshal(g.Result, &res); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(g.Status, "at", g.LastUpdatedAt+":", res.Content[0].Text.Text)
	}
	// Output:
	// task dGFzay1vbmU working poll every 500 ms
	// completed at 2026-07-28T10:00:02.000Z: 42
}
