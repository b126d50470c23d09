package signin

import (
	"net/http"
	"reflect"
	"testing"
)

func TestChallenges(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []challenge
	}{
		{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"`,
			[]challenge{{"Bearer", map[string]string{"resource_metadata": "https://x/.well-known/oauth-protected-resource/mcp"}}}},
		{`Bearer error="insufficient_scope", scope="a b", error_description="say \"more\""`,
			[]challenge{{"Bearer", map[string]string{"error": "insufficient_scope", "scope": "a b", "error_description": `say "more"`}}}},
		{`DPoP algs="ES256 RS256", error="use_dpop_nonce", Bearer realm=mcp`,
			[]challenge{{"DPoP", map[string]string{"algs": "ES256 RS256", "error": "use_dpop_nonce"}}, {"Bearer", map[string]string{"realm": "mcp"}}}},
		{`Basic abc==, Bearer SCOPE="x"`,
			[]challenge{{"Basic", map[string]string{"abc": ""}}, {"Bearer", map[string]string{"scope": "x"}}}},
		{`Bearer`, []challenge{{"Bearer", map[string]string{}}}},
		{`Bearer scope="unterminated`, []challenge{{"Bearer", map[string]string{}}}},
		{``, nil},
	} {
		h := http.Header{"Www-Authenticate": {tc.in}}
		if got := challenges(h); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %v\nwant %v", tc.in, got, tc.want)
		}
	}
}

// FuzzChallenges: any header parses, without a panic and in bounded
// time.
func FuzzChallenges(f *testing.F) {
	for _, s := range []string{`Bearer a="b", c=d`, `DPoP error="use_dpop_nonce"`, `x y=, z="\`, `,,,`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range parseChallenges(s) {
			if c.scheme == "" {
				t.Fatalf("%q: a challenge without a scheme", s)
			}
		}
	})
}
