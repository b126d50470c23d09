package oauth_test

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
	"github.com/mcpwire/mcpwire/internal/testsupport/wirecheck"
)

var update = flag.Bool("update", false, "record the HTTP transcripts of testdata/http-auth again and rewrite them")

// authGoldenDir holds the authorization transcripts, in internal/peer/golden's
// HTTP format. They are kept apart from testdata/http, whose replayer
// serves the everything server without a ResourceServer.
const authGoldenDir = "../testdata/http-auth"

// jsonRPCChecker checks every JSON-RPC message of a transcript against the
// schema of its revision; the OAuth bodies (refusals, the metadata
// document) are not JSON-RPC and are compared, not checked.
func jsonRPCChecker(t *testing.T) golden.Checker {
	c, err := wirecheck.Load("../testdata/schema")
	if err != nil {
		t.Fatal(err)
	}
	return func(rev string, methodOf func([]byte) string, line []byte) error {
		if !bytes.Contains(line, []byte(`"jsonrpc"`)) {
			return nil
		}
		if rev == "" {
			rev = "2025-11-25"
		}
		return c.ServerMessageFunc(rev, methodOf, line)
	}
}

// TestHTTPGolden replays every transcript of testdata/http-auth against
// the server of newAuthServer; with -update (go test ./oauth -run
// TestHTTPGolden -update) it records them first and rewrites the files:
// read every change before keeping it.
func TestHTTPGolden(t *testing.T) {
	check := jsonRPCChecker(t)
	files, err := filepath.Glob(filepath.Join(authGoldenDir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s (%v)", authGoldenDir, err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			golden.TestHTTPFile(t, path, *update, func(*golden.HTTPTranscript) (golden.HTTPTarget, func()) {
				s := newAuthServer(t)
				return s.target(), s.stop
			}, check)
		})
	}
}

// target is the server as the transcript engine reaches it.
func (s *authServer) target() golden.HTTPTarget {
	return golden.HTTPTarget{URL: s.url, Client: s.client}
}
