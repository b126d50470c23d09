package skill_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/testsupport/pipeclient"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/skill"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const pdfSkill = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: 2.1\n---\n\nSkill body.\n"

// skills is a file system of three skills, one nested in a path.
var skills = fstest.MapFS{
	"pdf-processing/SKILL.md":            {Data: []byte(pdfSkill)},
	"pdf-processing/references/FORMS.md": {Data: []byte("Supporting content.\n")},
	"pdf-processing/logo.png":            {Data: []byte{0x89, 'P', 'N', 'G', 0xff, 0x00}},
	"acme/billing/refunds/SKILL.md":      {Data: []byte("---\nname: refunds\ndescription: Refund an order\n---\nSteps.\n")},
	"notes/SKILL.md":                     {Data: []byte("---\nname: notes\ndescription: Take notes\n---\n")},
}

// serve serves srv over a pipe and connects a 2026-07-28 client that
// declares the extension.
func serve(t *testing.T, srv *mcp.Server) *client.Client {
	t.Helper()
	return pipeclient.Connect(t, srv, &client.Options{Era: protocol.Modern, Logger: quiet, Extensions: []client.Extension{skill.Declare}})
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newServer(t *testing.T, set *skill.Set, pageSize int) *mcp.Server {
	return mcp.NewServer(mcp.Implementation{Name: "skills", Version: "1"},
		&mcp.Options{Logger: quiet, PageSize: pageSize, Extensions: []mcp.Extension{set.Extension()}})
}

// A served set lists every skill across pages with its manifest, gets
// one by URI, lists directories, and its skills load and check.
func TestServeAndLoad(t *testing.T) {
	set := skill.NewSet(skill.Options{DirectoryRead: true})
	if err := set.AddFS(skills); err != nil {
		t.Fatal(err)
	}
	c := serve(t, newServer(t, set, 2))
	ctx := bounded(t)
	if got := string(c.Info().Capabilities.Extensions[skill.ExtensionID]["directoryRead"]); got != "true" {
		t.Errorf("the capability's directoryRead = %q", got)
	}
	var entries []*skill.Entry
	for e, err := range skill.List(ctx, c) {
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	var uris []string
	for _, e := range entries {
		uris = append(uris, e.URI)
	}
	if got := strings.Join(uris, " "); got != "skill://acme/billing/refunds/SKILL.md skill://notes/SKILL.md skill://pdf-processing/SKILL.md" {
		t.Fatalf("listed %s", got)
	}
	pdf := entries[2]
	if len(pdf.Files) != 3 || pdf.Files[0].URI != pdf.URI || pdf.Files[0].Size != int64(len(pdfSkill)) ||
		pdf.Files[0].Digest != "sha256:"+sha(pdfSkill) || pdf.Files[2].URI != "skill://pdf-processing/references/FORMS.md" {
		t.Errorf("the manifest: %+v", pdf.Files)
	}
	if string(pdf.Frontmatter) != `{"description":"Extract, fill, and assemble PDF documents","metadata":{"version":2.1},"name":"pdf-processing"}` {
		t.Errorf("frontmatter %s", pdf.Frontmatter)
	}
	sk, err := skill.Load(ctx, c, pdf)
	if err != nil || sk.Text != pdfSkill || sk.Name() != "pdf-processing" {
		t.Fatalf("Load: %+v, %v", sk, err)
	}
	if b, err := sk.ReadFile(ctx, "references/FORMS.md"); err != nil || string(b) != "Supporting content.\n" {
		t.Errorf("ReadFile(FORMS.md) = %q, %v", b, err)
	}
	if b, err := sk.ReadFile(ctx, "logo.png"); err != nil || len(b) != 6 || b[4] != 0xff {
		t.Errorf("ReadFile(logo.png), a blob = %q, %v", b, err)
	}
	if _, err := sk.ReadFile(ctx, "missing.md"); !errors.Is(err, skill.ErrNotInManifest) {
		t.Errorf("ReadFile(missing.md): %v", err)
	}
	if e, err := skill.Get(ctx, c, pdf.URI); err != nil || e.URI != pdf.URI || len(e.Files) != 3 {
		t.Errorf("Get: %+v, %v", e, err)
	}
	var rpcErr *jsonrpc.Error
	if _, err := skill.Get(ctx, c, "skill://nope/SKILL.md"); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("Get of an unknown skill: %v; want -32602", err)
	}

	var dir struct {
		Resources  []protocol.Resource `json:"resources"`
		NextCursor *string             `json:"nextCursor"`
		ResultType string              `json:"resultType"`
	}
	if err := c.Call(ctx, skill.MethodDirectoryRead, map[string]any{"uri": "skill://pdf-processing"}, &dir); err != nil {
		t.Fatal(err)
	}
	if len(dir.Resources) != 2 || dir.NextCursor == nil {
		t.Fatalf("the root's first page: %+v", dir)
	}
	var listed []string
	for _, r := range dir.Resources {
		listed = append(listed, r.URI+" "+r.MimeType)
	}
	cursor := *dir.NextCursor
	dir.Resources, dir.NextCursor = nil, nil
	if err := c.Call(ctx, skill.MethodDirectoryRead, map[string]any{"uri": "skill://pdf-processing", "cursor": cursor}, &dir); err != nil {
		t.Fatal(err)
	}
	for _, r := range dir.Resources {
		listed = append(listed, r.URI+" "+r.MimeType)
	}
	if len(listed) != 3 || dir.NextCursor != nil {
		t.Errorf("the root lists %v over two pages", listed)
	}
	got := strings.Join(listed, ", ")
	for _, want := range []string{"skill://pdf-processing/SKILL.md text/markdown", "skill://pdf-processing/logo.png image/png", "skill://pdf-processing/references " + skill.DirectoryMIMEType} {
		if !strings.Contains(got, want) {
			t.Errorf("the root lists %s; want %s", got, want)
		}
	}
	for _, bad := range []string{"skill://pdf-processing/SKILL.md", "skill://nope", "skill://pdf-processing/refer"} {
		if err := c.Call(ctx, skill.MethodDirectoryRead, map[string]any{"uri": bad}, &dir); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("directory read of %s: %v; want -32602", bad, err)
		}
	}
	res, err := c.ReadResource(ctx, "skill://pdf-processing/SKILL.md")
	if err != nil || res.Contents[0].Text == nil || res.Contents[0].Text.MimeType != "text/markdown" {
		t.Errorf("resources/read of SKILL.md: %+v, %v", res, err)
	}
}

// A skill added once the server is built is listed and served.
func TestAddLater(t *testing.T) {
	set := skill.NewSet(skill.Options{})
	c := serve(t, newServer(t, set, 0))
	if err := set.AddFiles("late", map[string]string{"SKILL.md": "---\nname: late\ndescription: Comes later\n---\n"}); err != nil {
		t.Fatal(err)
	}
	for e, err := range skill.List(bounded(t), c) {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := skill.Load(bounded(t), c, e); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("nothing listed")
}

func sha(s string) string { return sha256Sum([]byte(s)) }

// Skills added while clients list and read directories race with
// nothing.
func TestAddWhileServing(t *testing.T) {
	set := skill.NewSet(skill.Options{DirectoryRead: true})
	if err := set.AddFS(skills); err != nil {
		t.Fatal(err)
	}
	c := serve(t, newServer(t, set, 0))
	done := make(chan error, 1)
	go func() {
		for i := range 20 {
			if err := set.AddFiles(fmt.Sprintf("late-%d", i), map[string]string{"SKILL.md": fmt.Sprintf("---\nname: late-%d\ndescription: Later\n---\n", i)}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	ctx := bounded(t)
	for range 20 {
		if err := c.Call(ctx, skill.MethodDirectoryRead, map[string]any{"uri": "skill://pdf-processing"}, nil); err != nil {
			t.Fatal(err)
		}
		for _, err := range skill.List(ctx, c) {
			if err != nil && !strings.Contains(err.Error(), "stale cursor") {
				t.Fatal(err)
			}
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
