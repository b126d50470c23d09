package probe

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/calltest"
)

func TestFlagIn(t *testing.T) {
	tests := []struct {
		meta string
		want request
	}{
		{``, notProbe},
		{`{}`, notProbe},
		{`{"progressToken":1}`, notProbe},
		{`{"forge.permission_patterns":true}`, isProbe},
		{`{ "progressToken" : 7 , "forge.permission_patterns" : true }`, isProbe},
		{`{"forge.permission_patterns":false}`, notProbe},
		{`{"forge.permission_patterns":null}`, badFlag},
		{`{"forge.permission_patterns":"true"}`, badFlag},
		{`{"forge.permission_patterns":1}`, badFlag},
		{`{"forge.permission_patterns":{}}`, badFlag},
		{`{"forge\u002epermission_patterns":true}`, isProbe},
		{`{"Forge.Permission_Patterns":true}`, nearMiss},
		{`{"other":{"forge.permission_patterns":true}}`, notProbe},
		{`{"other":{"Forge.permission_patterns":true}}`, notProbe},
		{`{"note":"forge.permission_patterns"}`, notProbe},
		{`{"note":"FORGE.PERMISSION_PATTERNS"}`, notProbe},
		{`{"forge.permission_patterns":true,"forge.permission_patterns":false}`, twice},
		{`{"forge.permission_patterns":false,"forge\u002epermission_patterns":true}`, twice},
		{`[true]`, notObject},
		{`null`, notObject},
		{`"forge.permission_patterns"`, notObject},
		{` [{"forge.permission_patterns":true}]`, notObject},
	}
	for _, tt := range tests {
		t.Run(tt.meta, func(t *testing.T) {
			if got, _ := flagIn(json.RawMessage(tt.meta)); got != tt.want {
				t.Errorf("flagIn(%s) = %v, want %v", tt.meta, got, tt.want)
			}
		})
	}
}

// Each near miss of the probe key is refused with the key as sent and the
// exact key named; the exact key and unrelated keys, even ones that look
// alike in other ways, are not.
func TestNearMissKeys(t *testing.T) {
	refused := []struct{ meta, sent string }{
		{`{"Forge.permission_patterns":true}`, "Forge.permission_patterns"},
		{`{"FORGE.PERMISSION_PATTERNS":true}`, "FORGE.PERMISSION_PATTERNS"},
		{`{"forge.Permission_Patterns":false}`, "forge.Permission_Patterns"},
		{`{" forge.permission_patterns ":true}`, " forge.permission_patterns "},
		{`{"forge.permission_patterns\t":true}`, "forge.permission_patterns\t"},
		{`{"\nforge.permission_patterns":true}`, "\nforge.permission_patterns"},
		{`{"\u0046orge.permission_patterns":true}`, "Forge.permission_patterns"},
		{`{"\u0020forge\u002epermission_patterns":true}`, " forge.permission_patterns"},
		{`{"\u200bforge.permission_patterns":true}`, "\u200bforge.permission_patterns"},
		{`{"\ufeffforge.permission_patterns":true}`, "\ufeffforge.permission_patterns"},
		{`{"forge.permi` + "\u017f\u017f" + `ion_patterns":true}`, "forge.permi\u017f\u017fion_patterns"},
		{`{"progressToken":"t","Forge.permission_patterns":"yes"}`, "Forge.permission_patterns"},
		{`{"forge.permission_patterns":true,"FORGE.permission_patterns":true}`, "FORGE.permission_patterns"},
	}
	for _, tt := range refused {
		t.Run(tt.meta, func(t *testing.T) {
			got, key := flagIn(json.RawMessage(tt.meta))
			if got != nearMiss || key != tt.sent {
				t.Fatalf("flagIn = %v, %q; want a near miss of %q", got, key, tt.sent)
			}
			ctx := calltest.WithMeta(context.Background(), tt.meta)
			probe, err := check(ctx, "write_file")
			if probe || err == nil {
				t.Fatalf("check = %v, %v; want a refusal", probe, err)
			}
			msg := err.Error()
			for _, part := range []string{"-32602", `tool "write_file"`, `is not "forge.permission_patterns"`, `send "forge.permission_patterns": true`} {
				if !strings.Contains(msg, part) {
					t.Errorf("refusal %q does not contain %q", msg, part)
				}
			}
		})
	}
	unaffected := []struct {
		meta string
		want request
	}{
		{`{"forge.permission_patterns":true}`, isProbe},
		{`{"forge.permission_patterns":false}`, notProbe},
		{`{"forge.patterns":true,"forge.always":true,"forge.supports_permission_patterns":true}`, notProbe},
		{`{"Forge.Patterns":true,"FORGE.ALWAYS":[]}`, notProbe},
		{`{"forge.permission-patterns":true}`, notProbe},
		{`{"forge.permission_patterns_v2":true}`, notProbe},
		{`{"x.forge.permission_patterns":true}`, notProbe},
		{`{"forge. permission_patterns":true}`, notProbe},
		{`{"forged":"FORGE","info":"of"}`, notProbe},
	}
	for _, tt := range unaffected {
		if got, _ := flagIn(json.RawMessage(tt.meta)); got != tt.want {
			t.Errorf("flagIn(%s) = %v, want %v", tt.meta, got, tt.want)
		}
	}
}

// A near miss always holds '_' and "forge" in ASCII, in some case, or a
// backslash: the fast path of mayHoldKey relies on it. It holds because no
// rune but the ASCII letters themselves folds to f, o, r, g or e, and none
// but '_' to '_'.
func TestFoldOrbits(t *testing.T) {
	for _, c := range "forge_" {
		for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
			if r > unicode.MaxASCII {
				t.Errorf("%q folds to %q, which mayHoldKey does not look for", c, r)
			}
		}
	}
	for _, meta := range []string{`{"fOrGe_":1}`, `{"FORGE":"_"}`, `{"a_":"xxf","forge":1}`, `{"\u0066":1}`} {
		if !mayHoldKey([]byte(meta)) {
			t.Errorf("mayHoldKey(%s) = false", meta)
		}
	}
	for _, meta := range []string{`{"progressToken":"tok-1"}`, `{"info":"fo","f":"orgf_"}`, `{"forg_":1}`, `{"forge":1}`} {
		if mayHoldKey([]byte(meta)) {
			t.Errorf("mayHoldKey(%s) = true", meta)
		}
	}
}

func TestIsProbe(t *testing.T) {
	if IsProbe(context.Background()) {
		t.Error("IsProbe outside a call = true")
	}
	if p, err := check(context.Background(), "x"); p || err != nil {
		t.Errorf("check outside a call = %v, %v", p, err)
	}
	ctx := calltest.WithMeta(context.Background(), `{"forge.permission_patterns":true}`)
	if !IsProbe(ctx) {
		t.Error("IsProbe of a probe = false")
	}
	if p, err := check(ctx, "x"); !p || err != nil {
		t.Errorf("check of a probe = %v, %v", p, err)
	}
	ctx = calltest.WithMeta(context.Background(), `{"forge.permission_patterns":"yes"}`)
	if IsProbe(ctx) {
		t.Error(`IsProbe of "yes" = true`)
	}
	if _, err := check(ctx, "x"); err == nil || !strings.Contains(err.Error(), "must be true") {
		t.Errorf(`check of "yes" = %v`, err)
	}
}

// A near-miss key as long as a whole message comes back clipped.
func TestNearMissKeyClipped(t *testing.T) {
	key := " " + strings.Repeat(" ", 1<<20) + "Forge.permission_patterns"
	meta, _ := json.Marshal(map[string]bool{key: true})
	ctx := calltest.WithMeta(context.Background(), string(meta))
	_, err := check(ctx, "t")
	if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "bytes)") {
		t.Errorf("refusal of a 1 MiB key = %d bytes: %.200v", len(err.Error()), err)
	}
}

// mayHoldKey agrees with its plain definition.
func TestMayHoldKeyMatchesReference(t *testing.T) {
	reference := func(b []byte) bool {
		s := string(b)
		return strings.ContainsRune(s, '\\') || strings.ContainsRune(s, '_') && strings.Contains(asciiLower(s), "forge")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "fFoOrRgGeE\\_|&fx\"{}:. \x00\xff\xc5\xbf"
	for range 200000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if got, want := mayHoldKey(b), reference(b); got != want {
			t.Fatalf("mayHoldKey(%q) = %v, want %v", b, got, want)
		}
	}
}

// asciiLower lower-cases ASCII letters only, as the scan compares.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
