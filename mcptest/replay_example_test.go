package mcptest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/tool"
)

// calc is the server of the Replay examples; description is its add
// tool's.
func calc(description string) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "calc", Version: "1"}, nil)
	srv.MustAddTool(tool.New("add", description, func(_ context.Context, in AddArgs) (Sum, error) {
		return Sum{in.A + in.B}, nil
	}))
	return srv
}

// A golden test: testdata/calc.golden holds a session with the calc
// server, the client's lines ("> ") and the server's answers ("< "), and
// Replay plays the client's side against the server and compares. In a
// test of your own:
//
//	var _ = flag.Bool("update", false, "rewrite the golden transcripts")
//
//	func TestGolden(t *testing.T) {
//		mcptest.Replay(t, newServer(), "testdata/calc.golden")
//	}
//
// and go test -run TestGolden -update writes the server's answers into
// the file (a new transcript needs only its "#" header, the
// "-- session --" line and the client's lines).
func ExampleReplay() {
	test(func(t testing.TB) {
		mcptest.Replay(t, calc("Adds two integers."), "testdata/calc.golden")
	})
	fmt.Println("every line matched")
	// Output:
	// every line matched
}

// A server whose tool description changed since the transcript was
// written: Replay fails the test once, at the line of the tool list,
// with a diff of the description under the line printed here.
func ExampleReplay_difference() {
	test(func(t testing.TB) {
		mcptest.Replay(firstLines{t}, calc("Adds two numbers."), "testdata/calc.golden")
	})
	// Output:
	// error: mcptest.Replay: testdata/calc.golden:8: server line differs (-want +got):
}

// firstLines prints the first line of each error only, for the example's
// output: the diff under it is go-cmp's, whose layout is not stable.
type firstLines struct{ testing.TB }

func (f firstLines) Errorf(format string, args ...any) {
	first, _, _ := strings.Cut(fmt.Sprintf(format, args...), "\n")
	f.TB.Errorf("%s", first)
}
