package protocol

import "testing"

// TestPresenceRoundTrips lists members whose presence means something
// even when their value is empty, false or null; each must come back as
// sent.
func TestPresenceRoundTrips(t *testing.T) {
	tests := []struct {
		name string
		v    any
		in   string
	}{
		{"isError false", new(CallToolResult), `{"resultType":"complete","content":[],"isError":false}`},
		{"structuredContent null", new(CallToolResult), `{"resultType":"complete","content":[],"structuredContent":null}`},
		{"structuredContent scalar", new(CallToolResult), `{"resultType":"complete","content":[],"structuredContent":"s"}`},
		{"empty cursor", new(PaginatedRequestParams), `{"_meta":{},"cursor":""}`},
		{"empty next cursor", new(ListPromptsResult), `{"prompts":[],"nextCursor":"","ttlMs":0,"cacheScope":"private"}`},
		{"ttl zero", new(ReadResourceResult), `{"resultType":"complete","contents":[],"ttlMs":0,"cacheScope":"public"}`},
		{"no cache hints", new(ReadResourceResult), `{"resultType":"complete","contents":[]}`},
		{"empty capabilities", new(ServerCapabilities), `{"logging":{},"completions":{},"experimental":{},"extensions":{},"prompts":{},"resources":{},"tools":{}}`},
		{"capability flags false", new(ServerCapabilities), `{"resources":{"subscribe":false,"listChanged":false}}`},
		{"empty client capabilities", new(ClientCapabilities), `{"roots":{},"sampling":{"context":{},"tools":{}},"elicitation":{"form":{},"url":{}}}`},
		{"empty arrays", new(Tool), `{"name":"t","inputSchema":{"type":"object"},"icons":[],"_meta":{}}`},
		{"required false", new(Prompt), `{"name":"p","arguments":[{"name":"a","required":false}]}`},
		{"hints false", new(ToolAnnotations), `{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}`},
		{"empty filter", new(SubscriptionFilter), `{"resourceSubscriptions":[],"toolsListChanged":false}`},
		{"empty arguments", new(CallToolRequestParams), `{"_meta":{},"name":"t","arguments":{},"inputResponses":{}}`},
		{"string default empty", new(StringSchema), `{"type":"string","default":""}`},
		{"size zero", new(Resource), `{"uri":"u","name":"n","size":0}`},
		{"completion flags", new(CompleteResult), `{"completion":{"values":[],"total":0,"hasMore":false}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { roundTrip(t, []byte(tt.in), tt.v) })
	}
}

// TestRequiredArraysNeverNull shows that required arrays left nil encode
// as [], not null.
func TestRequiredArraysNeverNull(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"tools", ListToolsResult{}, `{"tools":[]}`},
		{"prompts", ListPromptsResult{}, `{"prompts":[]}`},
		{"resources", ListResourcesResult{}, `{"resources":[]}`},
		{"templates", ListResourceTemplatesResult{}, `{"resourceTemplates":[]}`},
		{"contents", ReadResourceResult{}, `{"contents":[]}`},
		{"messages", GetPromptResult{}, `{"messages":[]}`},
		{"content", CallToolResult{}, `{"content":[]}`},
		{"versions", DiscoverResult{}, `{"supportedVersions":[],"capabilities":{}}`},
		{"values", CompleteResult{}, `{"completion":{"values":[]}}`},
		{"roots", ListRootsResult{}, `{"roots":[]}`},
		{"form properties", RequestedSchema{}, `{"type":"object","properties":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { encodeCase(t, tt.v, tt.want, "") })
	}
}
