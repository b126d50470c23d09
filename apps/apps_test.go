package apps_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/apps"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// The view is listed and read with its MIME type and _meta.ui, in both
// eras, and a host's Load gets it back whole.
func TestServeAndLoad(t *testing.T) {
	want := `{"csp":{"connectDomains":["https://api.example.com"]},"permissions":{"clipboardWrite":{}},"prefersBorder":true}`
	for _, era := range eras {
		t.Run(era.String(), func(t *testing.T) {
			c := connect(t, newAppServer(t).srv, era, apps.Declare)
			ctx := bounded(t)
			var listed *protocol.Resource
			for r, err := range c.Resources(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				if r.URI == calculator.URI {
					listed = r
				}
			}
			if listed == nil || listed.MimeType != apps.MIMEType || string(listed.Meta["ui"]) != want {
				t.Fatalf("listed %+v, want mimeType %s and _meta.ui %s", listed, apps.MIMEType, want)
			}
			r, err := c.ReadResource(ctx, calculator.URI)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Contents[0].Text; got.MimeType != apps.MIMEType || string(got.Meta["ui"]) != want {
				t.Fatalf("read %+v, want _meta.ui %s", got, want)
			}
			v, err := apps.Load(ctx, c, calculator.URI)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&apps.View{URI: calculator.URI, HTML: page, Meta: calculator.Meta}, v); diff != "" {
				t.Fatalf("Load (-want +got):\n%s", diff)
			}
		})
	}
}

// Add refuses what the extension does not allow, naming it.
func TestAddRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		r    apps.Resource
		want string
	}{
		"scheme":      {apps.Resource{URI: "https://x/view.html", Name: "v", HTML: page}, "must start with ui://"},
		"bare":        {apps.Resource{URI: "ui://", Name: "v", HTML: page}, "must start with ui://"},
		"empty":       {apps.Resource{URI: "ui://v", Name: "v", HTML: " \n"}, "the HTML is empty"},
		"directive":   {apps.Resource{URI: "ui://v", Name: "v", HTML: page, Meta: apps.ResourceMeta{CSP: &apps.CSP{ConnectDomains: []string{"https://a.com; script-src *"}}}}, `CSP entry "https://a.com; script-src *"`},
		"scheme-less": {apps.Resource{URI: "ui://v", Name: "v", HTML: page, Meta: apps.ResourceMeta{CSP: &apps.CSP{ResourceDomains: []string{"cdn.example.com"}}}}, "not an origin"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, nil)
			err := apps.Add(srv, tc.r)
			if !errors.Is(err, apps.ErrInvalidResource) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Add: %v, want ErrInvalidResource saying %q", err, tc.want)
			}
		})
	}
}

// A linked tool carries both keys; ToolMetaOf reads it back, and who may
// see it.
func TestLinkAndToolMeta(t *testing.T) {
	c := connect(t, newAppServer(t).srv, protocol.Modern, apps.Declare)
	got := map[string]apps.ToolMeta{}
	for tl, err := range c.Tools(bounded(t)) {
		if err != nil {
			t.Fatal(err)
		}
		if tl.Name != "plain" && string(tl.Meta["ui/resourceUri"]) != `"`+calculator.URI+`"` {
			t.Errorf("%s: _meta[ui/resourceUri] = %s", tl.Name, tl.Meta["ui/resourceUri"])
		}
		m, err := apps.ToolMetaOf(tl)
		if err != nil {
			t.Fatal(err)
		}
		got[tl.Name] = m
	}
	want := map[string]apps.ToolMeta{
		"show":   {ResourceURI: calculator.URI},
		"add":    {ResourceURI: calculator.URI, Visibility: []apps.Visibility{apps.VisibleToApp}},
		"secret": {ResourceURI: calculator.URI, Visibility: []apps.Visibility{apps.VisibleToModel}},
		"plain":  {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("ToolMetaOf (-want +got):\n%s", diff)
	}
	for name, model := range map[string]bool{"show": true, "add": false, "secret": true, "plain": true} {
		if got[name].Visible(apps.VisibleToModel) != model || got[name].Visible(apps.VisibleToApp) != (name != "secret") {
			t.Errorf("%s: visible to the model %v, to the app %v", name, got[name].Visible(apps.VisibleToModel), got[name].Visible(apps.VisibleToApp))
		}
	}
}

// A tool for the app alone refuses a client that declared no apps (it has
// no view to make the call), and serves one that did, in both eras.
func TestAppOnlyToolNeedsAnAppsClient(t *testing.T) {
	for _, era := range eras {
		t.Run(era.String(), func(t *testing.T) {
			a := newAppServer(t)
			plain := connect(t, a.srv, era)
			r, err := plain.CallTool(bounded(t), "add", addArgs{1, 2})
			if err != nil {
				t.Fatal(err)
			}
			if r.IsError == nil || !*r.IsError || a.calls["add"].Load() != 0 {
				t.Fatalf("add from a client without apps: %+v, %d calls", r, a.calls["add"].Load())
			}
			if _, err := plain.CallTool(bounded(t), "show", addArgs{1, 2}); err != nil || a.calls["show"].Load() != 1 {
				t.Fatalf("show, visible to the model: %v, %d calls", err, a.calls["show"].Load())
			}
			host := connect(t, a.srv, era, apps.Declare)
			r, err = host.CallTool(bounded(t), "add", addArgs{1, 2})
			if err != nil || r.IsError != nil || string(r.StructuredContent) != `{"sum":3}` {
				t.Fatalf("add from a host: %+v, %v", r, err)
			}
		})
	}
}

// ClientSupports needs the MIME type among the declared ones.
func TestClientSupports(t *testing.T) {
	for name, tc := range map[string]struct {
		ext  client.Extension
		want bool
	}{
		"declared":     {apps.Declare, true},
		"no mimeTypes": {client.Extension{ID: apps.ExtensionID}, false},
		"other type":   {client.Extension{ID: apps.ExtensionID, Capability: protocol.Object{"mimeTypes": json.RawMessage(`["text/html"]`)}}, false},
		"not an array": {client.Extension{ID: apps.ExtensionID, Capability: protocol.Object{"mimeTypes": json.RawMessage(`"` + apps.MIMEType + `"`)}}, false},
	} {
		for _, era := range eras {
			t.Run(name+"/"+era.String(), func(t *testing.T) {
				srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, nil)
				srv.AddTool(tool.New("probe", "Reports ClientSupports.", func(ctx context.Context, _ struct{}) (bool, error) {
					return apps.ClientSupports(ctx), nil
				}))
				r, err := connect(t, srv, era, tc.ext).CallTool(bounded(t), "probe", nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := string(r.StructuredContent); got != map[bool]string{true: "true", false: "false"}[tc.want] && got != map[bool]string{true: `{"result":true}`, false: `{"result":false}`}[tc.want] {
					t.Fatalf("ClientSupports = %s, want %v", got, tc.want)
				}
			})
		}
	}
	if apps.ClientSupports(context.Background()) {
		t.Fatal("ClientSupports outside a request = true")
	}
}

// ToolMetaOf takes the legacy key when _meta.ui names no resource, and
// refuses what is not of the extension's shape.
func TestToolMetaOf(t *testing.T) {
	for name, tc := range map[string]struct {
		meta    string
		want    apps.ToolMeta
		refused string
	}{
		"none":         {meta: `{}`},
		"ui":           {meta: `{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`, want: apps.ToolMeta{ResourceURI: "ui://a", Visibility: []apps.Visibility{"app"}}},
		"legacy":       {meta: `{"ui/resourceUri":"ui://b"}`, want: apps.ToolMeta{ResourceURI: "ui://b"}},
		"ui first":     {meta: `{"ui":{"resourceUri":"ui://a"},"ui/resourceUri":"ui://b"}`, want: apps.ToolMeta{ResourceURI: "ui://a"}},
		"legacy fills": {meta: `{"ui":{"visibility":["model"]},"ui/resourceUri":"ui://b"}`, want: apps.ToolMeta{ResourceURI: "ui://b", Visibility: []apps.Visibility{"model"}}},
		"not ui":       {meta: `{"ui":{"resourceUri":"https://evil.example/x"}}`, refused: "is not a ui:// URI"},
		"ui a string":  {meta: `{"ui":"ui://a"}`, refused: "_meta.ui"},
		"legacy num":   {meta: `{"ui/resourceUri":7}`, refused: "is not a string"},
		"vis a string": {meta: `{"ui":{"resourceUri":"ui://a","visibility":"app"}}`, refused: "_meta.ui"},
	} {
		t.Run(name, func(t *testing.T) {
			var meta protocol.Meta
			if err := json.Unmarshal([]byte(tc.meta), &meta); err != nil {
				t.Fatal(err)
			}
			got, err := apps.ToolMetaOf(&protocol.Tool{Name: "t", Meta: meta})
			if tc.refused != "" {
				if !errors.Is(err, apps.ErrInvalidResource) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("ToolMetaOf: %v, want a refusal saying %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Load refuses a view a host must not show, and falls back to the listed
// _meta.ui.
func TestLoadChecks(t *testing.T) {
	text := func(uri, mime, html, ui string) []mcp.ResourceContents {
		c := mcp.TextContents(uri, mime, html)
		if ui != "" {
			c.Text.Meta = protocol.Meta{"ui": json.RawMessage(ui)}
		}
		return []mcp.ResourceContents{c}
	}
	for name, tc := range map[string]struct {
		contents []mcp.ResourceContents
		listed   map[string]any
		want     *apps.ResourceMeta
		refused  string
	}{
		"fallback": {contents: text("ui://v", apps.MIMEType, page, ""), listed: map[string]any{"ui": map[string]any{"prefersBorder": false}},
			want: &apps.ResourceMeta{PrefersBorder: ptr(false)}},
		"contents first": {contents: text("ui://v", apps.MIMEType, page, `{"domain":"a.example"}`), listed: map[string]any{"ui": map[string]any{"prefersBorder": false}},
			want: &apps.ResourceMeta{Domain: "a.example"}},
		"spaced type": {contents: text("ui://v", "Text/HTML; profile=mcp-app", page, ""), want: &apps.ResourceMeta{}},
		"blob":        {contents: []mcp.ResourceContents{mcp.BlobContents("ui://v", apps.MIMEType, []byte(page))}, want: &apps.ResourceMeta{}},
		"plain html":  {contents: text("ui://v", "text/html", page, ""), refused: `its MIME type is "text/html"`},
		"empty":       {contents: text("ui://v", apps.MIMEType, "  ", ""), refused: "the document is empty"},
		"two":         {contents: append(text("ui://v", apps.MIMEType, page, ""), text("ui://v", apps.MIMEType, page, "")...), refused: "more than one"},
		"elsewhere":   {contents: text("ui://w", apps.MIMEType, page, ""), refused: "no contents at the URI"},
		"bad csp":     {contents: text("ui://v", apps.MIMEType, page, `{"csp":{"connectDomains":["*"]}}`), refused: "not an origin"},
		"bad meta":    {contents: text("ui://v", apps.MIMEType, page, `{"csp":[]}`), refused: "_meta.ui"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, nil)
			contents := tc.contents
			if err := srv.AddResource(mcp.Resource{URI: "ui://v", Name: "v", Meta: tc.listed,
				Read: func(context.Context, string) ([]mcp.ResourceContents, error) { return contents, nil }}); err != nil {
				t.Fatal(err)
			}
			v, err := apps.Load(bounded(t), connect(t, srv, protocol.Modern, apps.Declare), "ui://v")
			if tc.refused != "" {
				if !errors.Is(err, apps.ErrInvalidResource) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("Load: %v, want a refusal saying %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(*tc.want, v.Meta); diff != "" || v.HTML != page {
				t.Fatalf("Load: HTML %q, meta (-want +got):\n%s", v.HTML, diff)
			}
		})
	}
}
