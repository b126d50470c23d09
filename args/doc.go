// Package args reads the raw arguments object of a tool call with typed
// getters, and collects every problem it meets into one isError result,
// instead of stopping at the first, so that a model can fix all of its
// mistakes in one retry.
//
//	func handle(ctx context.Context, raw json.RawMessage) (*tool.Result, error) {
//		a := args.Parse(raw)
//		path := a.String("path")
//		limit := a.OptInt("limit", 100)
//		mode := a.OptEnum("mode", "overwrite", "overwrite", "append")
//		if res := a.Result(); res != nil {
//			return res, nil // every problem, one per line
//		}
//		...
//	}
//
// (Name the handler's parameter raw, not args, or it hides the package.)
//
// Keys are matched exactly, case included. A required getter reports a
// missing argument; an Opt getter returns its default instead. A JSON null
// counts as absent, since clients send null for "not given". Values are
// never coerced: "5" is not an integer and 1 is not a boolean. Integers may
// be written as 3 or 3.0 or 3e0, as JSON Schema allows, but must be whole
// and fit in an int64.
//
// A getter that meets a problem returns the zero value (or the default) and
// records the problem; [Reader.Result] and [Reader.Err] report them all, in
// the order the getters were called. [Reader.Check] adds a handler's own
// problems to the same list, and [Reader.RejectUnknown] adds one for every
// argument no getter read.
package args
