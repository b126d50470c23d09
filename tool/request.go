package tool

// Middleware wraps the handler of a tool. The mcp server applies its
// middlewares (mcp.Options.ToolMiddleware) after the arguments were
// validated and before the handler runs, outermost first.
type Middleware func(t Tool, next Handler) Handler
