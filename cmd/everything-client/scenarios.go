package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// scenarioContext is MCP_CONFORMANCE_CONTEXT: the scenario's name and what
// it gives the client to do.
type scenarioContext struct {
	// Name is the scenario's name.
	Name string `json:"name"`
	// ToolCalls are the calls http-custom-headers asks for, in order.
	ToolCalls []toolCall `json:"toolCalls"`
	// What the auth/* scenarios give.
	authContext
}

// toolCall is one tools/call a scenario asks for.
type toolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// scenario runs one client scenario against the server at url.
type scenario func(ctx context.Context, url string, sc scenarioContext) error

// scenarios are the client scenarios of the suites, by name, with the
// auth/* ones of auth.go and the sep-2640-* ones of skills.go.
var scenarios = map[string]scenario{
	"initialize":                          listTools,
	"tools_call":                          callOne("add_numbers", `{"a":5,"b":3}`),
	"elicitation-sep1034-client-defaults": callOne("test_client_elicitation_defaults", `{}`),
	"sse-retry":                           callOne("test_reconnection", `{}`),
	"request-metadata":                    connectOnly,
	"sep-2322-client-request-state":       requestState,
	"http-standard-headers":               everyVerb,
	"http-custom-headers":                 contextCalls,
	"http-invalid-tool-headers":           callEveryTool,
	"json-schema-ref-no-deref":            listTools,
	"json-schema-2020-12-preservation":    echoSchema,
}

// session is a connected client.
type session struct {
	*client.Client
}

// connect opens a session to url with package client, in the era the
// server speaks (server/discover first, then initialize), answering
// elicitations with the form's defaults. The client's Admit gate leaves
// out the tools whose x-mcp-header annotations are invalid, as the
// Streamable HTTP transport asks of clients.
func connect(ctx context.Context, url string) (*session, error) {
	c, err := client.Connect(ctx, client.HTTP{URL: url}, &client.Options{
		ClientInfo: protocol.Implementation{Name: "mcpwire-everything-client"},
		Elicit:     acceptDefaults,
		// The suites run every scenario at once: on a loaded machine an
		// answer may take longer than the default probe's 2 s.
		DiscoverTimeout: discoverTimeout,
	})
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return &session{Client: c}, nil
}

// acceptDefaults accepts a form elicitation with the default of every
// field that has one (Elicitation, Default values); it declines a URL
// elicitation.
func acceptDefaults(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
	if p.Form == nil {
		return &protocol.ElicitResult{Action: protocol.ElicitDecline}, nil
	}
	raw, err := json.Marshal(p.Form.RequestedSchema)
	if err != nil {
		return nil, err
	}
	var schema struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, err
	}
	content := protocol.Object{}
	for name, prop := range schema.Properties {
		if len(prop.Default) > 0 {
			content[name] = prop.Default
		}
	}
	return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: content}, nil
}

// tool is what the scenarios read of a listed tool.
type tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// tools lists every tool the client admits, page by page.
func (s *session) tools(ctx context.Context) ([]tool, error) {
	var all []tool
	for t, err := range s.Tools(ctx) {
		if err != nil {
			return nil, err
		}
		all = append(all, tool{Name: t.Name, InputSchema: t.InputSchema})
	}
	return all, nil
}

// callTool calls a tool with arguments (a JSON object; nil is {}); a
// JSON-RPC error, or a result the client refuses, is an error.
func (s *session) callTool(ctx context.Context, name string, arguments json.RawMessage) error {
	if len(arguments) == 0 {
		arguments = json.RawMessage(`{}`)
	}
	if _, err := s.CallTool(ctx, name, arguments); err != nil {
		return fmt.Errorf("tools/call %s: %w", name, err)
	}
	return nil
}

// withSession connects, runs f and closes the session.
func withSession(ctx context.Context, url string, f func(*session) error) error {
	s, err := connect(ctx, url)
	if err != nil {
		return err
	}
	ferr := f(s)
	return errors.Join(ferr, s.Close())
}

// withTools connects, lists the tools (so the connection learns their
// x-mcp-header annotations), runs f with them and closes the session.
func withTools(ctx context.Context, url string, f func(*session, []tool) error) error {
	return withSession(ctx, url, func(s *session) error {
		tools, err := s.tools(ctx)
		if err != nil {
			return err
		}
		return f(s, tools)
	})
}

// connectOnly connects and closes (request-metadata judges the handshake).
func connectOnly(ctx context.Context, url string, _ scenarioContext) error {
	return withSession(ctx, url, func(*session) error { return nil })
}

// listTools connects and lists the tools.
func listTools(ctx context.Context, url string, _ scenarioContext) error {
	return withTools(ctx, url, func(*session, []tool) error { return nil })
}

// callOne lists the tools and calls name with arguments.
func callOne(name, arguments string) scenario {
	return func(ctx context.Context, url string, _ scenarioContext) error {
		return withTools(ctx, url, func(s *session, _ []tool) error {
			return s.callTool(ctx, name, json.RawMessage(arguments))
		})
	}
}

// requestState calls the tools of sep-2322-client-request-state, whose
// results are input_required: the session answers the elicitations and
// retries with the requestState echoed.
func requestState(ctx context.Context, url string, _ scenarioContext) error {
	return withTools(ctx, url, func(s *session, _ []tool) error {
		var errs []error
		for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"} {
			errs = append(errs, s.callTool(ctx, name, nil))
		}
		return errors.Join(errs...)
	})
}

// everyVerb lists tools, resources and prompts and uses the first of each,
// so that every request carries its Mcp-Method and Mcp-Name headers. A
// list of what the server does not declare is sent all the same, and its
// error is not one.
func everyVerb(ctx context.Context, url string, _ scenarioContext) error {
	return withSession(ctx, url, func(s *session) error {
		tools, err := s.tools(ctx)
		errs := []error{err}
		if len(tools) > 0 {
			errs = append(errs, s.callTool(ctx, tools[0].Name, nil))
		}
		caps := s.Info().Capabilities
		errs = append(errs,
			s.useFirst(ctx, protocol.MethodListResources, "resources", "uri", caps.Resources != nil, protocol.MethodReadResource,
				func(uri string) any { return map[string]any{"uri": uri} }),
			s.useFirst(ctx, protocol.MethodListPrompts, "prompts", "name", caps.Prompts != nil, protocol.MethodGetPrompt,
				func(name string) any { return map[string]any{"name": name, "arguments": map[string]string{}} }))
		return errors.Join(errs...)
	})
}

// useFirst sends the list request list and, when the first page's items
// (the member items) are not empty, the request method with the params
// made of the first item's key member. A failed list is an error only
// when declared (the server declares the capability).
func (s *session) useFirst(ctx context.Context, list, items, key string, declared bool, method string, params func(string) any) error {
	var result json.RawMessage
	if err := s.Call(ctx, list, map[string]any{}, &result); err != nil {
		if !declared {
			return nil
		}
		return fmt.Errorf("%s: %w", list, err)
	}
	var page map[string]json.RawMessage
	var listed []map[string]json.RawMessage
	if err := json.Unmarshal(result, &page); err != nil {
		return fmt.Errorf("%s: %w", list, err)
	}
	if err := json.Unmarshal(page[items], &listed); err != nil {
		return fmt.Errorf("%s: %s: %w", list, items, err)
	}
	if len(listed) == 0 {
		return nil
	}
	var v string
	if err := json.Unmarshal(listed[0][key], &v); err != nil {
		return fmt.Errorf("%s: the first item's %s: %w", list, key, err)
	}
	if err := s.Call(ctx, method, params(v), nil); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// contextCalls lists the tools, so the connection learns their x-mcp-header
// annotations, then makes the calls the scenario's context asks for.
func contextCalls(ctx context.Context, url string, sc scenarioContext) error {
	return withTools(ctx, url, func(s *session, _ []tool) error {
		var errs []error
		for _, c := range sc.ToolCalls {
			errs = append(errs, s.callTool(ctx, c.Name, c.Arguments))
		}
		return errors.Join(errs...)
	})
}

// callEveryTool lists the tools and calls each with a region: the
// connection refuses the calls of the tools whose x-mcp-header annotations
// are invalid, so only the valid ones reach the server. Refusals are
// expected and not errors.
func callEveryTool(ctx context.Context, url string, _ scenarioContext) error {
	return withTools(ctx, url, func(s *session, tools []tool) error {
		for _, t := range tools {
			_ = s.callTool(ctx, t.Name, json.RawMessage(`{"region":"us-west1"}`))
		}
		return nil
	})
}

// echoSchema sends the inputSchema of json_schema_2020_12_tool, as
// received, back through json_schema_echo: the schema must arrive with
// every keyword intact.
func echoSchema(ctx context.Context, url string, _ scenarioContext) error {
	return withTools(ctx, url, func(s *session, tools []tool) error {
		for _, t := range tools {
			if t.Name == "json_schema_2020_12_tool" {
				args, err := json.Marshal(map[string]json.RawMessage{"schema": t.InputSchema})
				if err != nil {
					return err
				}
				return s.callTool(ctx, "json_schema_echo", args)
			}
		}
		return errors.New("tools/list has no json_schema_2020_12_tool")
	})
}
