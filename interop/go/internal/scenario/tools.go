package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// baseTools are the tools every version of the server has.
var baseTools = []string{"echo", "add", "fail", "slow"}

// maxPages stops a cursor walk that never ends.
const maxPages = 200

func (x *run) checkList(ctx context.Context) {
	ctx, cancel := x.step(ctx)
	defer cancel()
	var names []string
	x.tools = map[string]Tool{}
	cursor, pages := "", 0
	for {
		page, err := x.sess.ListToolsPage(ctx, cursor)
		if err != nil {
			x.r.Fail("list", "page %d (cursor %q): %v", pages+1, cursor, err)
			return
		}
		pages++
		for _, t := range page.Tools {
			if _, dup := x.tools[t.Name]; dup {
				x.r.Fail("list", "tool %q listed twice (page %d)", t.Name, pages)
				return
			}
			x.tools[t.Name] = t
			names = append(names, t.Name)
		}
		if page.NextCursor == "" {
			break
		}
		if pages == maxPages {
			x.r.Fail("list", "still a nextCursor after %d pages", pages)
			return
		}
		cursor = page.NextCursor
	}
	all, err := x.sess.ListAllTools(ctx)
	if err != nil {
		x.r.Fail("list", "the SDK's own listing: %v", err)
		return
	}
	var allNames []string
	for _, t := range all {
		allNames = append(allNames, t.Name)
	}
	switch {
	case !slices.Equal(names, allNames):
		x.r.Fail("list", "page by page %v, the SDK's own listing %v", names, allNames)
	case missing(names, baseTools) != nil:
		x.r.Fail("list", "missing %v in %v", missing(names, baseTools), names)
	case pages < 2:
		x.r.Fail("list", "%d tools in one page: the run asks for a small page size so that cursors are followed", len(names))
	default:
		x.r.Pass("list", "%d tools over %d pages: %s", len(names), pages, strings.Join(names, ","))
	}
}

func missing(have, want []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(have, w) {
			out = append(out, w)
		}
	}
	return out
}

// call runs one tool call bounded by the step timeout.
func (x *run) call(ctx context.Context, name string, args map[string]any) (*Result, error) {
	ctx, cancel := x.step(ctx)
	defer cancel()
	return x.sess.CallTool(ctx, name, args, nil)
}

func (x *run) checkEcho(ctx context.Context, check, text string) {
	res, err := x.call(ctx, "echo", map[string]any{"text": text})
	if err != nil {
		x.r.Fail(check, "%d bytes: %v", len(text), err)
		return
	}
	switch {
	case res.IsError:
		x.r.Fail(check, "isError: %s", firstText(res))
	case len(res.Content) != 1 || res.Content[0].Type != "text":
		x.r.Fail(check, "want one text block, got %v", res.Types())
	case res.Content[0].Text != text:
		x.r.Fail(check, "sent %d bytes, got back %d bytes that differ from byte %d", len(text), len(res.Content[0].Text), firstDiff(text, res.Content[0].Text))
	default:
		x.r.Pass(check, "%d bytes back byte-identical", len(text))
	}
}

// errChain names the types of an error and of the errors it wraps.
func errChain(err error) string {
	var types []string
	for ; err != nil; err = errors.Unwrap(err) {
		types = append(types, fmt.Sprintf("%T", err))
	}
	return strings.Join(types, " wrapping ")
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func firstText(res *Result) string {
	for _, b := range res.Content {
		if b.Type == "text" {
			return b.Text
		}
	}
	return "(no text block)"
}

func (x *run) checkAdd(ctx context.Context) {
	res, err := x.call(ctx, "add", map[string]any{"a": 2, "b": 40})
	if err != nil {
		x.r.Fail("add", "%v", err)
		return
	}
	if res.IsError {
		x.r.Fail("add", "isError: %s", firstText(res))
		return
	}
	if !jsonEqual(res.Structured, `{"sum":42}`) {
		x.r.Fail("add", "structuredContent %s, want {\"sum\":42}", orAbsent(res.Structured))
		return
	}
	x.r.Pass("add", "structuredContent %s", res.Structured)
}

// jsonEqual compares a JSON value with a JSON literal, as values.
func jsonEqual(got json.RawMessage, want string) bool {
	if got == nil {
		return false
	}
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		return false
	}
	return reflect.DeepEqual(g, w)
}

func orAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "(absent)"
	}
	return string(raw)
}

// skipUnlisted reports a SKIP and returns true when the server has no such tool.
func (x *run) skipUnlisted(check, tool string) bool {
	if _, ok := x.tools[tool]; ok {
		return false
	}
	x.r.Skip(check, "the server does not list %s yet", tool)
	return true
}

func (x *run) checkTags(ctx context.Context) {
	if x.skipUnlisted("tags", "tag_catalog") {
		return
	}
	wantRoot, want := "object", `{"result":["alpha","beta","gamma"]}`
	if x.modern {
		wantRoot, want = "array", `["alpha","beta","gamma"]`
	}
	if root := schemaType(x.tools["tag_catalog"].OutputSchema); root != wantRoot {
		x.r.Fail("tags", "listed outputSchema has type %q, want %q in this era: %s", root, wantRoot, orAbsent(x.tools["tag_catalog"].OutputSchema))
		return
	}
	res, err := x.call(ctx, "tag_catalog", map[string]any{})
	switch {
	case err != nil:
		x.r.Fail("tags", "%v", err)
	case res.IsError:
		x.r.Fail("tags", "isError: %s", firstText(res))
	case !jsonEqual(res.Structured, want):
		x.r.Fail("tags", "structuredContent %s, want %s", orAbsent(res.Structured), want)
	default:
		x.r.Pass("tags", "structuredContent %s, outputSchema type %s", res.Structured, wantRoot)
	}
}

func schemaType(schema json.RawMessage) string {
	var s struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return ""
	}
	return fmt.Sprint(s.Type)
}

func (x *run) checkFail(ctx context.Context) {
	res, err := x.call(ctx, "fail", map[string]any{})
	switch {
	case err != nil:
		x.r.Fail("fail", "a protocol error instead of an isError result: %v", err)
	case !res.IsError:
		x.r.Fail("fail", "isError is false: %v", res.Types())
	default:
		x.r.Pass("fail", "isError true: %s", firstText(res))
	}
}

// bundleTypes are the evidence_bundle block types, in order.
var bundleTypes = []string{"text", "image", "audio", "resource_link", "resource"}

func (x *run) checkBundle(ctx context.Context) {
	if x.skipUnlisted("bundle", "evidence_bundle") {
		return
	}
	res, err := x.call(ctx, "evidence_bundle", map[string]any{})
	switch {
	case err != nil:
		x.r.Fail("bundle", "%v", err)
	case res.IsError:
		x.r.Fail("bundle", "isError: %s", firstText(res))
	case !slices.Equal(res.Types(), bundleTypes):
		x.r.Fail("bundle", "block types %v, want %v", res.Types(), bundleTypes)
	default:
		if problem := bundleProblem(res); problem != "" {
			x.r.Fail("bundle", "%s", problem)
			return
		}
		x.r.Pass("bundle", "block types %v", res.Types())
	}
}

// bundleProblem checks the fields of the five blocks that an SDK could lose.
func bundleProblem(res *Result) string {
	var b [5]struct {
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
		URI      string `json:"uri"`
		Name     string `json:"name"`
		Resource struct {
			URI  string `json:"uri"`
			Text string `json:"text"`
			Blob string `json:"blob"`
		} `json:"resource"`
	}
	for i := range b {
		if err := json.Unmarshal(res.Content[i].Raw, &b[i]); err != nil {
			return fmt.Sprintf("block %d: %v", i, err)
		}
	}
	switch {
	case b[1].Data == "" || !strings.HasPrefix(b[1].MimeType, "image/"):
		return fmt.Sprintf("image block without data or an image/ mimeType: %s", res.Content[1].Raw)
	case b[2].Data == "" || !strings.HasPrefix(b[2].MimeType, "audio/"):
		return fmt.Sprintf("audio block without data or an audio/ mimeType: %.200s", res.Content[2].Raw)
	case b[3].URI == "" || b[3].Name == "":
		return fmt.Sprintf("resource_link without uri or name: %s", res.Content[3].Raw)
	case b[4].Resource.URI == "" || b[4].Resource.Text == "" && b[4].Resource.Blob == "":
		return fmt.Sprintf("embedded resource without uri or contents: %s", res.Content[4].Raw)
	}
	return ""
}

func (x *run) checkUnknown(ctx context.Context) {
	const name = "no_such_tool_interop"
	mark := x.wire.Len()
	res, err := x.call(ctx, name, map[string]any{})
	if err == nil {
		x.r.Fail("unknown", "the SDK returned a result, isError=%v %q; want a JSON-RPC error -32602", res.IsError, firstText(res))
		return
	}
	onWire := "no response on the wire"
	if req, ok := x.toolCall(mark, name); ok {
		if resp, ok := x.wire.ResponseTo(req.ID); ok {
			onWire = fmt.Sprintf("wire: error %d %q", resp.ErrCode, resp.ErrMsg)
		}
	}
	code, ok := x.sess.ErrorCode(err)
	switch {
	case !ok:
		x.r.Fail("unknown", "the SDK's error carries no JSON-RPC code: %s: %v (%s)", errChain(err), err, onWire)
	case code != -32602:
		x.r.Fail("unknown", "code %d, want -32602: %s: %v (%s)", code, errChain(err), err, onWire)
	default:
		x.r.Pass("unknown", "code -32602, surfaced as %s: %v (%s)", errChain(err), err, onWire)
	}
}
