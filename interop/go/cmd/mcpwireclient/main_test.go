package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fakeEnv makes the test binary a fake legacy stdio server instead of
// running the tests: its value names what it gets wrong.
const fakeEnv = "MCPWIRECLIENT_FAKE_SERVER"

func TestMain(m *testing.M) {
	if bug := os.Getenv(fakeEnv); bug != "" {
		fakeServer(bug)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer answers JSON-RPC lines on stdin until it closes, as a legacy
// server with one tool, lookup, whose outputSchema wants an integer count.
// With bug "output" the tool's structured content breaks its outputSchema
// (which the Consume gate must refuse); with "none" it is sound.
func fakeServer(bug string) {
	count := `3`
	if bug == "output" {
		count = `"three"`
	}
	results := map[string]string{
		"initialize": `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}`,
		"tools/list": `{"tools":[{"name":"lookup","inputSchema":{"type":"object"},` +
			`"outputSchema":{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}}]}`,
		"tools/call": `{"content":[{"type":"text","text":"{\"count\":` + strings.ReplaceAll(count, `"`, `\"`) + `}"}],"structuredContent":{"count":` + count + `}}`,
		"ping":       `{}`,
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || msg.ID == nil || msg.Method == "" {
			continue // a notification or a response
		}
		if res, ok := results[msg.Method]; ok {
			os.Stdout.WriteString(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":` + res + "}\n")
		} else {
			os.Stdout.WriteString(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"error":{"code":-32601,"message":"Method not found"}}` + "\n")
		}
	}
}

// runFake runs the program against the fake server with bug, and returns
// its exit status and report.
func runFake(t *testing.T, bug string, extra ...string) (int, string) {
	t.Helper()
	t.Setenv(fakeEnv, bug)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	args := append([]string{"mcpwireclient", "-name", "fake", "-era", "auto", "-expect", "legacy", "-strict"}, extra...)
	code := run(append(args, "--", exe), &out, &errs)
	return code, out.String()
}

func TestSoundServerPasses(t *testing.T) {
	code, out := runFake(t, "none")
	if code != 0 || !strings.Contains(out, "PASS refusals: none unexpected") || !strings.Contains(out, "RESULT PASS") {
		t.Fatalf("exit %d, want 0 and no refusal:\n%s", code, out)
	}
}

// A refusal of the Consume gate fails the run, and names the item, rule
// and path.
func TestRefusalFails(t *testing.T) {
	code, out := runFake(t, "output")
	if code != 1 || !strings.Contains(out, "FAIL refusals: 1 refusals") || !strings.Contains(out, "RESULT FAIL") {
		t.Fatalf("exit %d, want 1 and one refusal:\n%s", code, out)
	}
	if !regexp.MustCompile(`(?m)^INFO REFUSED: consume lookup rule=\S+ path=/structuredContent/count`).MatchString(out) {
		t.Errorf("the refusal is not described with its gate, item, rule and path:\n%s", out)
	}
}

// A known server bug is reported but does not fail the run.
func TestKnownRefusalPasses(t *testing.T) {
	saved := known
	defer func() { known = saved }()
	code, out := runFake(t, "output")
	if code != 1 {
		t.Fatalf("exit %d before the finding is known:\n%s", code, out)
	}
	rule := regexp.MustCompile(`rule=(\S+)`).FindStringSubmatch(out)
	if rule == nil {
		t.Fatalf("no rule in:\n%s", out)
	}
	known = append(known, knownFinding{server: "fake", item: "lookup", rule: rule[1], why: "a test"})
	code, out = runFake(t, "output")
	if code != 0 || !strings.Contains(out, "INFO expected refusal (a test): consume lookup") {
		t.Fatalf("exit %d, want 0 with the refusal expected:\n%s", code, out)
	}
}

// TestChecksAgree keeps Checks and run.sh's client_checks columns in step.
func TestChecksAgree(t *testing.T) {
	b, err := os.ReadFile("../../../run.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^client_checks="([^"]*)"`).FindSubmatch(b)
	if m == nil {
		t.Fatal(`run.sh has no client_checks="..." line`)
	}
	if got := strings.Fields(string(m[1])); !slices.Equal(got, Checks) {
		t.Errorf("run.sh client_checks %v\nChecks               %v", got, Checks)
	}
}
