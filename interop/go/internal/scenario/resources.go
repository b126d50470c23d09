package scenario

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// The conformance resources cmd/everything serves.
const (
	staticTextURI   = "test://static-text"
	staticText      = "This is the content of the static text resource."
	staticBinaryURI = "test://static-binary"
	watchedURI      = "test://watched-resource"
	templateURI     = "test://template/{id}/data"
	templateReadURI = "test://template/123/data"
	templateJSON    = `{"id":"123","templateTest":true,"data":"Data for ID: 123"}`
	// missingURI is a URI no resource or template of the server matches.
	missingURI = "test://nonexistent-resource-interop"
)

// notFoundCode is the JSON-RPC code of a resources/read of an unknown URI:
// -32002 in the legacy era, -32602 in 2026-07-28, which has no -32002.
func notFoundCode(modern bool) int {
	if modern {
		return -32602
	}
	return -32002
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// listing is what a list check saw: the keys in order and the items by key.
type listing struct {
	keys  []string
	items map[string]Item
}

func (l *listing) has(key string) bool {
	if l == nil {
		return false
	}
	_, ok := l.items[key]
	return ok
}

// checkListing lists kind page by page, following each nextCursor, and
// with the SDK's own cursor following, and reports check: the two must
// agree, list want, and take at least minPages pages. It returns what the
// page walk found, nil when the listing failed.
func (x *run) checkListing(ctx context.Context, check string, kind Kind, want []string, minPages int) *listing {
	return x.checkListingWith(ctx, check, kind, want, minPages, nil)
}

// checkListingWith is checkListing with one more condition: extra, when not
// nil, returns the problem it finds in a listing that has every want item.
func (x *run) checkListingWith(ctx context.Context, check string, kind Kind, want []string, minPages int, extra func(*listing) string) *listing {
	ctx, cancel := x.step(ctx)
	defer cancel()
	l := &listing{items: map[string]Item{}}
	cursor, pages := "", 0
	for {
		page, err := x.sess.ListPage(ctx, kind, cursor)
		if err != nil {
			x.r.Fail(check, "%s page %d (cursor %q): %v", kind, pages+1, cursor, err)
			return nil
		}
		pages++
		for _, it := range page.Items {
			if _, dup := l.items[it.Key]; dup {
				x.r.Fail(check, "%q listed twice (page %d)", it.Key, pages)
				return nil
			}
			l.items[it.Key] = it
			l.keys = append(l.keys, it.Key)
		}
		if page.NextCursor == "" {
			break
		}
		if pages == maxPages {
			x.r.Fail(check, "still a nextCursor after %d pages", pages)
			return nil
		}
		cursor = page.NextCursor
	}
	all, err := x.sess.ListAll(ctx, kind)
	if err != nil {
		x.r.Fail(check, "the SDK's own listing: %v", err)
		return l
	}
	var allKeys []string
	for _, it := range all {
		allKeys = append(allKeys, it.Key)
	}
	switch {
	case !slices.Equal(l.keys, allKeys):
		x.r.Fail(check, "page by page %v, the SDK's own listing %v", l.keys, allKeys)
	case missing(l.keys, want) != nil:
		x.r.Skip(check, "the server does not list %v yet (it lists %v)", missing(l.keys, want), l.keys)
	case extra != nil && extra(l) != "":
		x.r.Fail(check, "%s", extra(l))
	case pages < minPages:
		x.r.Fail(check, "%d items in %d page(s), want at least %d pages: the run asks for a small page size so that cursors are followed", len(l.keys), pages, minPages)
	default:
		x.r.Pass(check, "%d over %d pages: %s", len(l.keys), pages, strings.Join(l.keys, ","))
	}
	return l
}

// skipUnlistedItem reports a SKIP and returns true when l lacks key.
func (x *run) skipUnlistedItem(check string, l *listing, key string) bool {
	if l.has(key) {
		return false
	}
	x.r.Skip(check, "the server does not list %s yet", key)
	return true
}

// skipNoCapability reports a SKIP and returns true when the server did not
// declare the capability.
func (x *run) skipNoCapability(check, capability string) bool {
	if x.hasCapability(capability) {
		return false
	}
	x.r.Skip(check, "the server declares no %s capability yet", capability)
	return true
}

func (x *run) checkResources(ctx context.Context) {
	if !x.hasCapability("resources") {
		x.skipNoCapability("resources", "resources")
		x.skipNoCapability("templates", "resources")
		return
	}
	x.resources = x.checkListing(ctx, "resources", Resources, []string{staticTextURI, staticBinaryURI}, 2)
	x.templates = x.checkListing(ctx, "templates", ResourceTemplates, []string{templateURI}, 1)
}

// readOne reads uri and returns its one contents entry, or reports check
// failed and returns false.
func (x *run) readOne(ctx context.Context, check, uri string) (Contents, bool) {
	ctx, cancel := x.step(ctx)
	defer cancel()
	contents, err := x.sess.ReadResource(ctx, uri)
	switch {
	case err != nil:
		x.r.Fail(check, "%s: %v", uri, err)
	case len(contents) != 1:
		x.r.Fail(check, "%s: %d contents entries, want 1", uri, len(contents))
	case contents[0].URI != uri:
		x.r.Fail(check, "%s: contents uri %q", uri, contents[0].URI)
	default:
		return contents[0], true
	}
	return Contents{}, false
}

func (x *run) checkReadText(ctx context.Context) {
	const check = "read-text"
	if x.skipUnlistedItem(check, x.resources, staticTextURI) {
		return
	}
	c, ok := x.readOne(ctx, check, staticTextURI)
	switch {
	case !ok:
	case c.MimeType != "text/plain":
		x.r.Fail(check, "mimeType %q, want text/plain: %.300s", c.MimeType, c.Raw)
	case c.Text == nil || c.Blob != nil:
		x.r.Fail(check, "want text and no blob: %.300s", c.Raw)
	case *c.Text != staticText:
		x.r.Fail(check, "text %q, want %q", *c.Text, staticText)
	default:
		x.r.Pass(check, "%s: text/plain, %q", staticTextURI, *c.Text)
	}
}

func (x *run) checkReadBinary(ctx context.Context) {
	const check = "read-binary"
	if x.skipUnlistedItem(check, x.resources, staticBinaryURI) {
		return
	}
	c, ok := x.readOne(ctx, check, staticBinaryURI)
	if !ok {
		return
	}
	if c.Blob == nil || c.Text != nil {
		x.r.Fail(check, "want a blob and no text: %.300s", c.Raw)
		return
	}
	data, err := base64.StdEncoding.DecodeString(*c.Blob)
	switch {
	case err != nil:
		x.r.Fail(check, "the blob is no base64: %v: %.100s", err, *c.Blob)
	case c.MimeType != "image/png":
		x.r.Fail(check, "mimeType %q, want image/png", c.MimeType)
	case !bytes.HasPrefix(data, pngSignature):
		x.r.Fail(check, "the blob (%d bytes) does not start with the PNG signature: % x", len(data), data[:min(len(data), 8)])
	default:
		x.r.Pass(check, "%s: image/png, a %d-byte blob that decodes to a PNG", staticBinaryURI, len(data))
	}
}

func (x *run) checkReadTemplate(ctx context.Context) {
	const check = "read-template"
	if x.skipUnlistedItem(check, x.templates, templateURI) {
		return
	}
	c, ok := x.readOne(ctx, check, templateReadURI)
	switch {
	case !ok:
	case c.Text == nil:
		x.r.Fail(check, "no text: %.300s", c.Raw)
	case !strings.Contains(*c.Text, "123"):
		x.r.Fail(check, "the text does not contain 123: %q", *c.Text)
	case c.MimeType != "application/json":
		x.r.Fail(check, "mimeType %q, want application/json", c.MimeType)
	case !jsonEqual(json.RawMessage(*c.Text), templateJSON):
		x.r.Fail(check, "text %s, want %s", *c.Text, templateJSON)
	default:
		x.r.Pass(check, "%s through %s: application/json %s", templateReadURI, templateURI, *c.Text)
	}
}

func (x *run) checkReadMissing(ctx context.Context) {
	const check = "read-missing"
	if x.skipNoCapability(check, "resources") {
		return
	}
	mark := x.wire.Len()
	sctx, cancel := x.step(ctx)
	contents, err := x.sess.ReadResource(sctx, missingURI)
	cancel()
	if err == nil {
		x.r.Fail(check, "the SDK returned %d contents entries for %s; want a JSON-RPC error", len(contents), missingURI)
		return
	}
	want := notFoundCode(x.modern)
	req, ok := x.request(mark, "resources/read", func(p json.RawMessage) bool { return paramString(p, "uri") == missingURI })
	if !ok {
		x.r.Fail(check, "no resources/read for %s on the wire; the SDK said %v", missingURI, err)
		return
	}
	detail, problem := x.rpcError(req, err, want)
	if problem != "" {
		x.r.Fail(check, "%s", problem)
		return
	}
	resp, _ := x.wire.ResponseTo(req.ID)
	if uri := paramString(resp.ErrData, "uri"); uri != missingURI {
		x.r.Fail(check, "error.data.uri %q, want %q (data %s)", uri, missingURI, orAbsent(resp.ErrData))
		return
	}
	x.r.Pass(check, "%s, data.uri set; %s", detail, eraNote(x.modern))
}

func eraNote(modern bool) string {
	if modern {
		return "2026-07-28 has no -32002"
	}
	return "the legacy resource-not-found code"
}

// rpcError checks that the server answered req with a JSON-RPC error of
// code want and that the SDK surfaced it, as err, with that code. It
// returns the detail of a pass, or the problem.
func (x *run) rpcError(req harness.Line, err error, want int) (detail, problem string) {
	resp, ok := x.wire.ResponseTo(req.ID)
	switch {
	case !ok:
		return "", fmt.Sprintf("no response to %s on the wire; the SDK said %v", req.Method, err)
	case !resp.IsError:
		return "", fmt.Sprintf("the server answered %s with a result, want error %d: %s", req.Method, want, resp.Head)
	case resp.ErrCode != want:
		return "", fmt.Sprintf("the server answered %s with error %d %q, want %d", req.Method, resp.ErrCode, resp.ErrMsg, want)
	}
	onWire := fmt.Sprintf("wire: error %d %q", resp.ErrCode, resp.ErrMsg)
	code, ok := x.sess.ErrorCode(err)
	switch {
	case !ok:
		return "", fmt.Sprintf("the SDK's error carries no JSON-RPC code: %s: %v (%s)", errChain(err), err, onWire)
	case code != want:
		return "", fmt.Sprintf("the SDK surfaced code %d, want %d: %s: %v (%s)", code, want, errChain(err), err, onWire)
	}
	return fmt.Sprintf("code %d, surfaced as %s: %v (%s)", code, errChain(err), err, onWire), ""
}
