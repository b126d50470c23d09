package review

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Result types of a 2026-07-28 result (its resultType member).
const (
	ResultComplete      = "complete"
	ResultInputRequired = "input_required"
)

// ResultType returns what a tools/call result is for a client of revision:
// "complete" for a result [Result] reviews, otherwise the resultType it
// carries ("input_required", or an extension value such as "task"). Before
// 2026-07-28 every result is complete: resultType does not exist there (an
// unknown revision reads the same; Result reports it).
// On 2026-07-28 an absent resultType reads as "complete", as clients must
// read it (Result still reports it missing). It returns "" for a result
// that is not an object or whose resultType is not a string; Result
// reviews those, and reports them.
func ResultType(revision string, result json.RawMessage) string {
	if !protocol.ParseRevision(revision).Modern() {
		return ResultComplete
	}
	res, ok := object(result)
	if !ok {
		return ""
	}
	raw, ok := res["resultType"]
	if !ok {
		return ResultComplete
	}
	if s, _ := str(raw); string(s) == ResultComplete {
		return ResultComplete
	}
	s, _ := text(raw)
	return s
}

// Result reviews a tools/call result (the JSON-RPC result object) against
// the descriptor it was called through, for the negotiated revision. It
// classifies nothing: a JSON-RPC error is the caller's to tell apart, and
// an isError result is reviewed like any other. It returns nil when the
// result may be used.
//
// A 2026-07-28 result whose resultType is a string other than "complete"
// ("input_required", or an extension value) is not a CallToolResult: it is
// skipped, with no problem, and [ResultType] tells the caller so. Its
// input requests must be answered and the final result reviewed.
//
// Checked: the content array and every block in it (see the package
// documentation), isError a boolean, structuredContent allowed by the
// revision and valid against the descriptor's outputSchema (isError
// results included), present when the tool declares an outputSchema
// (except on isError results), and mirrored by a text block.
func Result(revision string, descriptor, result json.RawMessage) []Problem {
	if r := protocol.ParseRevision(revision); r.Known() && plainResult(r, descriptor, result) {
		return nil
	}
	return fullResult(revision, descriptor, result)
}

// fullResult is Result without its fast path.
func fullResult(revision string, descriptor, result json.RawMessage) []Problem {
	rep := &report{gate: GateConsume}
	r, ok := rep.known(revision)
	if !ok {
		return rep.list
	}
	res, ok := object(result)
	if !ok {
		rep.add(RuleResultShape, "", "the tools/call result is not a JSON object")
		return rep.list
	}
	if r.Modern() && !resultType(rep, res) {
		return nil
	}
	contentList(rep, r, res)
	isError := false
	if v, ok := res["isError"]; ok {
		if kind(v) != "boolean" {
			rep.add(RuleIsErrorType, "/isError", "isError must be a boolean, not %s", kind(v))
		}
		isError = isTrue(v) // a non-boolean leaves it false
	}
	structured(rep, r, descriptor, res, isError)
	return rep.list
}

// resultType checks a 2026-07-28 result's resultType and reports whether
// the result is to be reviewed as a CallToolResult.
func resultType(rep *report, res members) bool {
	raw, ok := res["resultType"]
	if !ok {
		rep.advise(RuleResultType, "/resultType", `resultType is missing: 2026-07-28 results must carry it (clients read its absence as "complete")`)
		return true
	}
	s, ok := str(raw)
	if !ok {
		rep.add(RuleResultType, "/resultType", "resultType must be a string, not %s", kind(raw))
		return true
	}
	return string(s) == ResultComplete
}

// contentList checks the required content array and each of its blocks.
func contentList(rep *report, r protocol.Revision, res members) {
	raw, ok := res["content"]
	if !ok {
		rep.add(RuleContentList, "/content", "content is missing: every tools/call result carries a content array ([] when empty)")
		return
	}
	blocks, ok := array(raw)
	if !ok {
		rep.add(RuleContentList, "/content", "content must be an array of content blocks, not %s", kind(raw))
		return
	}
	for i, b := range blocks {
		block(rep, r, contentPath(i), b)
	}
}
