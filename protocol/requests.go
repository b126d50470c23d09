package protocol

// Methods of the 2026-07-28 client requests and of the input requests a
// server may embed in an InputRequiredResult.
const (
	MethodDiscover              = "server/discover"
	MethodListTools             = "tools/list"
	MethodCallTool              = "tools/call"
	MethodListPrompts           = "prompts/list"
	MethodGetPrompt             = "prompts/get"
	MethodListResources         = "resources/list"
	MethodListResourceTemplates = "resources/templates/list"
	MethodReadResource          = "resources/read"
	MethodComplete              = "completion/complete"
	MethodSubscriptionsListen   = "subscriptions/listen"
	MethodCreateMessage         = "sampling/createMessage"
	MethodElicit                = "elicitation/create"
	MethodListRoots             = "roots/list"
)
