package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// goBuild builds the packages into dir, from the module directory wd.
func goBuild(t testing.TB, wd, dir string, pkgs ...string) error {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build", "-o", dir + string(filepath.Separator)}, pkgs...)...)
	cmd.Dir = wd
	out, err := cmd.CombinedOutput()
	if err != nil {
		return &buildError{err: err, out: string(out)}
	}
	return nil
}

// buildError is a failed go build with its output.
type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// checkResult is one run of mcpwire check.
type checkResult struct {
	exit   int
	stdout string
	stderr string
}

// runCheckCmd runs mcpwire with args in this process.
func runCheckCmd(t testing.TB, args ...string) checkResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return checkResult{exit: code, stdout: stdout.String(), stderr: stderr.String()}
}

// doc is the --json document as a client of it reads it: decoding it
// with unknown fields refused checks its shape.
type doc struct {
	Transport string `json:"transport"`
	Server    *struct {
		Name        string `json:"name"`
		Version     string `json:"version"`
		Title       string `json:"title"`
		Description string `json:"description"`
	} `json:"server"`
	Era       string `json:"era"`
	Revision  string `json:"revision"`
	Detection *struct {
		Summary       string `json:"summary"`
		Discover      string `json:"discover"`
		DiscoverError *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"discoverError"`
		Invalid    string `json:"invalid"`
		WaitedMS   int64  `json:"waitedMs"`
		Retried    string `json:"retried"`
		Initialize bool   `json:"initialize"`
	} `json:"detection"`
	Capabilities      json.RawMessage `json:"capabilities"`
	Pages             map[string]int  `json:"pages"`
	Tools             []docTool       `json:"tools"`
	Resources         []docItem       `json:"resources"`
	ResourceTemplates []docItem       `json:"resourceTemplates"`
	Prompts           []docItem       `json:"prompts"`
	Problems          []docProblem    `json:"problems"`
	Failure           *docFailure     `json:"failure"`
	Ended             *docFailure     `json:"ended"`
	Verdict           string          `json:"verdict"`
	Exit              int             `json:"exit"`
}

type docFailure struct {
	Stage  string   `json:"stage"`
	Error  string   `json:"error"`
	Exit   string   `json:"exit"`
	Stderr []string `json:"stderr"`
}

type docTool struct {
	Name     string       `json:"name"`
	Admitted bool         `json:"admitted"`
	Called   bool         `json:"called"`
	Outcome  string       `json:"outcome"`
	Reason   string       `json:"reason"`
	Problems []docProblem `json:"problems"`
	Headers  []struct {
		Header  string `json:"header"`
		Path    string `json:"path"`
		Verdict string `json:"verdict"`
	} `json:"headers"`
}

type docItem struct {
	Name     string       `json:"name"`
	URI      string       `json:"uri"`
	Admitted bool         `json:"admitted"`
	Problems []docProblem `json:"problems"`
}

type docProblem struct {
	Gate    string `json:"gate"`
	Rule    string `json:"rule"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

// decode reads a --json document strictly: one value, known fields only,
// every list present (never null).
func decode(t testing.TB, out string) *doc {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(out)))
	dec.DisallowUnknownFields()
	var d doc
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("the --json output does not decode: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("the --json output holds more than one document:\n%s", out)
	}
	var lists map[string]json.RawMessage
	json.Unmarshal([]byte(out), &lists)
	for _, k := range []string{"pages", "tools", "resources", "resourceTemplates", "prompts", "problems"} {
		if v := string(lists[k]); v == "" || v == "null" {
			t.Errorf("the --json output's %s is %q, want a value", k, v)
		}
	}
	return &d
}

// rules returns every rule id the document reports, sorted, once each.
func (d *doc) rules() []string {
	var out []string
	add := func(ps []docProblem) {
		for _, p := range ps {
			out = append(out, p.Rule)
		}
	}
	add(d.Problems)
	for _, t := range d.Tools {
		add(t.Problems)
	}
	for _, list := range [][]docItem{d.Resources, d.ResourceTemplates, d.Prompts} {
		for _, it := range list {
			add(it.Problems)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tool returns the named tool's report.
func (d *doc) tool(t testing.TB, name string) docTool {
	t.Helper()
	for _, tr := range d.Tools {
		if tr.Name == name {
			return tr
		}
	}
	t.Fatalf("no tool %q in the report", name)
	return docTool{}
}

// No test opens a browser: a sign-in that reaches the user's step fails
// at once unless the test says otherwise.
func init() {
	openAuthorization = func(string) error { return errors.New("no browser in tests") }
}
