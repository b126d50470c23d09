package contract_test

import (
	"fmt"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// A call breaking a rule many times gets the first schema.MaxViolations
// violations and how many more; quoted input is clipped.
func TestPrepareCapped(t *testing.T) {
	tl := rawTool("t", `{"type":"object","properties":{"e":{"enum":["a"]}},"additionalProperties":false}`, "")
	var args strings.Builder
	args.WriteString(`{"e":"` + strings.Repeat("v", 1000) + `"`)
	for i := range 1000 {
		fmt.Fprintf(&args, `,"k%03d":0`, i)
	}
	args.WriteString(`,"` + strings.Repeat("z", 100) + `":0}`)
	_, bad := mustCompile(t, tl).Prepare(json.RawMessage(args.String()))
	if bad == nil {
		t.Fatal("accepted")
	}
	var want strings.Builder
	want.WriteString("invalid arguments for tool t:\n")
	want.WriteString(`- /e: "` + strings.Repeat("v", 64) + `…" (1000 bytes) should be "a" (enum)`)
	for i := range 19 {
		fmt.Fprintf(&want, "\n- /k%03d: additional property is not allowed (additionalProperties)", i)
	}
	want.WriteString("\n- … and 982 more") // 980 more keys and the long one
	if got := text(bad); got != want.String() {
		t.Errorf("text:\n got %q\nwant %q", got, want.String())
	}
}

// A result breaking its contract in many ways names the first problems
// and how many more, in the replacement text and in the logged error.
func TestCheckCapped(t *testing.T) {
	tl := rawTool("t", "", `{"type":"array","items":{"type":"string"}}`)
	var blocks []tool.Content
	for range 25 {
		blocks = append(blocks, &tool.Image{Data: "@@@@", MimeType: "image/png"})
	}
	items := make([]int, 30)
	got, err := mustCompile(t, tl).Check(&tool.Result{Content: blocks, Structured: items})
	if err == nil {
		t.Fatal("passed")
	}
	lines := strings.Split(text(got), "\n")
	if n := strings.Count(text(got), "\n- content["); n != 20 {
		t.Errorf("%d content problems listed, want 20:\n%s", n, text(got))
	}
	if last := lines[len(lines)-1]; last != "- … and 6 more" { // 5 blocks and the structured content
		t.Errorf("last line %q", last)
	}
	if !strings.HasSuffix(err.Error(), "; … and 6 more") {
		t.Errorf("error %q", err)
	}

	// The output schema's violations are capped inside their item.
	got, _ = mustCompile(t, tl).Check(&tool.Result{Structured: items})
	want := "tool t returned a result that breaks its contract, so it was not sent (this is a bug in the tool, not in the call):\n" +
		"- structuredContent does not match the output schema:"
	for _, i := range []int{0, 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 2, 20, 21, 22, 23, 24, 25, 26} {
		want += fmt.Sprintf("\n  - /%d: 0 should be a string, not an integer (type)", i)
	}
	want += "\n  - … and 10 more"
	if text(got) != want {
		t.Errorf("text:\n got %q\nwant %q", text(got), want)
	}
}
