package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
)

// hostsDir holds the pinned host CLIs (interop/hosts/package.json); `make
// hosts` installs them.
const hostsDir = "../../interop/hosts"

// A host is an MCP host CLI whose `mcp list` connects to each configured
// stdio server and prints its status.
type host struct {
	name string // the CLI, as npm links it into node_modules/.bin
	// client is the clientInfo name the host sends.
	client string
	// methods are the client methods the host's `mcp list` sends, in
	// this order (others may come between).
	methods []string
	// configure makes the host launch argv as the stdio server "every"
	// for a user whose HOME is home, running cli with env.
	configure func(t *testing.T, cli, home string, env, argv []string)
}

// hosts are the CLIs of interop/hosts. Claude Code speaks 2026-07-28:
// server/discover (the specification's "Server Discovery"), then
// tools/list with its per-request _meta; opencode speaks 2025-11-25: the
// initialize handshake of the specification's "Lifecycle", then
// tools/list page by page.
var hosts = []host{
	{name: "claude", client: "claude-code", methods: []string{"server/discover", "tools/list"}, configure: configureClaude},
	{name: "opencode", client: "opencode", methods: []string{"initialize", "notifications/initialized", "tools/list"}, configure: configureOpencode},
}

// configureClaude adds the server with `claude mcp add -s user`, which
// writes HOME/.claude.json.
func configureClaude(t *testing.T, cli, home string, env, argv []string) {
	t.Helper()
	runHost(t, cli, home, env, append([]string{"mcp", "add", "-s", "user", "every", "--"}, argv...)...)
}

// configureOpencode writes XDG_CONFIG_HOME/opencode/opencode.json with a
// "local" server.
func configureOpencode(t *testing.T, cli, home string, env, argv []string) {
	t.Helper()
	cfg, _ := json.Marshal(map[string]any{"mcp": map[string]any{
		"every": map[string]any{"type": "local", "command": argv, "enabled": true},
	}})
	dir := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "opencode.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
}

// findHost returns the host's CLI from interop/hosts, else from PATH, or
// "" when neither has it.
func findHost(name string) string {
	if p, err := filepath.Abs(filepath.Join(hostsDir, "node_modules", ".bin", name)); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, _ := exec.LookPath(name)
	return p
}

// hostEnv is the environment of a host run by the test: a HOME and XDG
// directories of its own, every proxy pointing at a closed loopback port,
// and no telemetry, update or model-list fetch.
func hostEnv(home string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"TMPDIR=" + os.TempDir(),
		"NO_COLOR=1",
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		// Claude Code
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		// opencode
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_DISABLE_SHARE=1", "OPENCODE_DISABLE_CLAUDE_CODE=1",
	}
	return env
}

// runHost runs the host CLI with args from home and returns its output;
// an exit other than 0, or no exit within two minutes, fails the test.
func runHost(t *testing.T, cli, home string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, args...)
	cmd.Dir = filepath.Join(home, "project")
	cmd.Env = env
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s: %v", filepath.Base(cli), strings.Join(args[:min(2, len(args))], " "), time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", cli, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestHosts records the `mcp list` of each installed host CLI in front of
// cmd/everything (the host launches `mcpwire record --out F -- everything`)
// and replays the transcript: it holds the host's clientInfo and the
// methods the host sends, and every server line matches. An absent CLI is
// skipped with the command that installs it, unless MCPWIRE_REQUIRE_HOSTS
// is set (as CI sets it, having installed them).
func TestHosts(t *testing.T) {
	clis := make([]string, len(hosts))
	var bins string
	for i, h := range hosts {
		if clis[i] = findHost(h.name); clis[i] != "" && bins == "" {
			bins = recordBins(t)
		}
	}
	for i, h := range hosts {
		t.Run(h.name, func(t *testing.T) {
			cli := clis[i]
			if cli == "" {
				if os.Getenv("MCPWIRE_REQUIRE_HOSTS") != "" {
					t.Fatalf("%s is not installed, and MCPWIRE_REQUIRE_HOSTS is set: make hosts installs it", h.name)
				}
				t.Skipf("%s is not installed: make hosts (cd interop/hosts && npm install --no-save) installs it", h.name)
			}
			home := t.TempDir()
			if err := os.Mkdir(filepath.Join(home, "project"), 0o755); err != nil {
				t.Fatal(err)
			}
			env := hostEnv(home)
			file := filepath.Join(t.TempDir(), h.name+".golden")
			everything := filepath.Join(bins, "everything")
			h.configure(t, cli, home, env, []string{filepath.Join(bins, "mcpwire"), "record", "--out", file, "--", everything})

			out := runHost(t, cli, home, env, "mcp", "list")
			if !slices.ContainsFunc(strings.Split(strings.ToLower(out), "\n"), func(l string) bool {
				return strings.Contains(l, "every") && strings.Contains(l, "connected") && !strings.Contains(l, "disconnected")
			}) {
				t.Errorf("%s mcp list does not say the server connected:\n%s", h.name, out)
			}
			tr := waitTranscript(t, file)
			text := tr.Format()
			checkHostTranscript(t, h, tr)
			if code, out := replayCmd(t, file, "--", everything); code != replayMatched {
				t.Errorf("replay: exit %d\n%s\nthe transcript's tail:\n%s", code, out, lastLines(text, 8))
			}
		})
	}
}

// waitTranscript waits for the recorder, which the host may leave to end
// after it exits, to write file (it renames the whole file into place).
func waitTranscript(t *testing.T, file string) *golden.Transcript {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		tr, err := golden.Load(file)
		if err == nil {
			return tr
		}
		if !errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
			t.Fatalf("no transcript: %v", err)
		}
	}
}

// checkHostTranscript checks that the header names the host as the client,
// that every request carries the host's clientInfo (in params.clientInfo
// for initialize, in params._meta otherwise) and that the host's methods
// come in order.
func checkHostTranscript(t *testing.T, h host, tr *golden.Transcript) {
	t.Helper()
	if !hasPrefixLine(tr.Header, "# client: "+h.client+" ") {
		t.Errorf("the header does not name the client %s:\n%s", h.client, strings.Join(tr.Header, "\n"))
	}
	var methods []string
	for _, st := range tr.Steps {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ClientInfo *struct{ Name, Version string } `json:"clientInfo"`
				Meta       struct {
					ClientInfo *struct{ Name, Version string } `json:"io.modelcontextprotocol/clientInfo"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(st.Client), &msg) != nil || msg.Method == "" {
			continue
		}
		methods = append(methods, msg.Method)
		info := msg.Params.ClientInfo
		if info == nil {
			info = msg.Params.Meta.ClientInfo
		}
		switch {
		case info != nil && (info.Name != h.client || info.Version == ""):
			t.Errorf("line %d: clientInfo %+v, want %s and a version", st.Line, *info, h.client)
		case info == nil && (msg.Method == "initialize" || msg.Method == "server/discover"):
			t.Errorf("line %d: %s without clientInfo", st.Line, msg.Method)
		}
	}
	rest := methods
	for _, m := range h.methods {
		i := slices.Index(rest, m)
		if i < 0 {
			t.Errorf("the client sent %q, want %q in this order", methods, h.methods)
			return
		}
		rest = rest[i+1:]
	}
}

// hasPrefixLine reports whether a line of lines begins with prefix.
func hasPrefixLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// lastLines returns the last n lines of text, each cut to 300 bytes.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	lines = lines[max(0, len(lines)-n):]
	for i, l := range lines {
		if len(l) > 300 {
			lines[i] = l[:300] + "…"
		}
	}
	return strings.Join(lines, "\n")
}
