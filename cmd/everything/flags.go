package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// callerEnv names the environment variable that sets the caller when the
// -caller flag is not given.
const callerEnv = "MCPWIRE_CALLER"

// The environment variables of a deployment (several instances behind a
// load balancer), read when their flags are not given.
const (
	instanceEnv = "MCPWIRE_INSTANCE"        // -instance
	stateKeyEnv = "MCPWIRE_STATE_KEY"       // -state-key
	redisEnv    = "MCPWIRE_REDIS"           // -redis
	proxiesEnv  = "MCPWIRE_TRUSTED_PROXIES" // -trusted-proxies
)

// instanceName is what -instance accepts: it starts the instance's
// legacy session ids and a load balancer's routing rule matches it.
var instanceName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,16}$`)

// defaultWatchInterval is how often test://watched-resource changes unless
// -watch-interval says otherwise.
const defaultWatchInterval = 3 * time.Second

// usageHead is what -h prints before the flags.
const usageHead = `Usage: everything [flags]

everything is mcpwire's contract server: an MCP server on stdin and stdout
(or, with -http, over Streamable HTTP at http://ADDR/mcp) with tools,
resources, resource templates, prompts and completions, for both protocol
eras (initialize, and 2026-07-28's per-request _meta).
See "go doc ./cmd/everything" for what it serves.

Flags:
`

// settings are the command line's settings.
type settings struct {
	pageSize       int
	maxMsg         int
	grace          time.Duration
	sandbox        string
	caller         *auth.Principal
	completionRate int
	watchInterval  time.Duration
	fixtures       bool
	// skills serves the Skills extension (package skill) with the
	// skills of skills.go.
	skills bool
	// apps serves the MCP Apps calculator (package apps) of app.go.
	apps       bool
	gateway    bool
	cpuprofile string
	// httpAddr, when set, serves over Streamable HTTP at http://httpAddr/mcp
	// instead of stdio.
	httpAddr string
	// auth, with httpAddr, protects the endpoint: "dev" with a development
	// authorization server started in the process (serveProtected).
	auth string
	// inputStateTTL is how long a 2026-07-28 requestState stays valid
	// (mcp.Options.InputStateTTL).
	inputStateTTL time.Duration
	// clientRequestTimeout bounds the wait for a legacy client's answer to
	// a request the server sent (mcp.Options.ClientRequestTimeout).
	clientRequestTimeout time.Duration
	// taskTTL is how long a task of the tasks extension is kept after its
	// last update, its ttlMs (mcp.Options.TaskTTL).
	taskTTL time.Duration
	// instance names this instance of a deployment: its legacy session
	// ids start with it and a dot, and the instance tool reports it.
	instance string
	// stateKey seals cursors and requestState (mcp.Options.StateKey):
	// instances that share it accept each other's state.
	stateKey string
	// redis, when set, is the address of the Redis server whose pub/sub
	// carries list changes and resource updates between instances.
	redis string
	// trustedProxies are the reverse proxies whose forwarded client
	// address the HTTP handler believes (mcphttp.Options.TrustedProxies).
	trustedProxies []string
	// calls counts the tool calls served, in a deployment.
	calls callCounter
}

// deployed reports whether the settings name a deployment of several
// instances: the tools that show it from outside (instance,
// touch_resource) are served then, and the stdio tool list is left alone.
func (s *settings) deployed() bool { return s.instance != "" || s.redis != "" }

// parseFlags reads the command line (without the program name). An error
// has been reported on out with the usage, by the flag package or here.
func parseFlags(args []string, out io.Writer) (*settings, error) {
	fs, s, callerFlag := flagSet()
	fs.SetOutput(out)
	proxies := fs.String("trusted-proxies", "", "with -http: comma-separated addresses or CIDR prefixes of the reverse proxies in front, whose X-Forwarded-For or Forwarded names the client for the per-caller limits, such as 127.0.0.1 for nginx on the same machine (default $"+proxiesEnv+", else none)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	spec := *proxies
	if !flagGiven(fs, "trusted-proxies") {
		spec = os.Getenv(proxiesEnv)
	}
	for p := range strings.SplitSeq(spec, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				return nil, usageError(fs, fmt.Sprintf("-trusted-proxies: %q is neither an IP address nor a CIDR prefix (such as 127.0.0.1 or 10.0.0.0/8)", p))
			}
		}
		s.trustedProxies = append(s.trustedProxies, p)
	}
	if fs.NArg() > 0 {
		return nil, usageError(fs, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	spec = *callerFlag
	if !flagGiven(fs, "caller") {
		spec = os.Getenv(callerEnv)
	}
	caller, err := parseCaller(spec)
	if err != nil {
		return nil, usageError(fs, err.Error())
	}
	s.caller = caller
	for _, e := range []struct {
		flag, env string
		value     *string
	}{{"instance", instanceEnv, &s.instance}, {"state-key", stateKeyEnv, &s.stateKey}, {"redis", redisEnv, &s.redis}} {
		if !flagGiven(fs, e.flag) {
			*e.value = os.Getenv(e.env)
		}
	}
	if s.instance != "" && !instanceName.MatchString(s.instance) {
		return nil, usageError(fs, fmt.Sprintf("-instance %q: give 1 to 16 letters, digits, - or _ (such as i1)", s.instance))
	}
	if s.stateKey != "" && len(s.stateKey) < mcp.MinStateKeyLen {
		return nil, usageError(fs, fmt.Sprintf("-state-key (or $%s) is %d characters long: give at least %d, the same on every instance", stateKeyEnv, len(s.stateKey), mcp.MinStateKeyLen))
	}
	if s.redis != "" {
		if _, _, err := net.SplitHostPort(s.redis); err != nil {
			return nil, usageError(fs, fmt.Sprintf("-redis %q is not HOST:PORT (such as 127.0.0.1:6379)", s.redis))
		}
	}
	if s.watchInterval < 0 {
		return nil, usageError(fs, "-watch-interval must not be negative")
	}
	if s.completionRate < 0 {
		return nil, usageError(fs, "-completion-rate must not be negative")
	}
	if s.inputStateTTL <= 0 {
		return nil, usageError(fs, "-input-state-ttl must be positive")
	}
	if s.clientRequestTimeout <= 0 {
		return nil, usageError(fs, "-client-request-timeout must be positive")
	}
	if s.taskTTL <= 0 {
		return nil, usageError(fs, "-task-ttl must be positive")
	}
	if flagGiven(fs, "http") {
		if _, _, err := net.SplitHostPort(s.httpAddr); err != nil {
			return nil, usageError(fs, fmt.Sprintf("-http %q is not HOST:PORT (such as 127.0.0.1:8080, or 127.0.0.1:0 for a free port)", s.httpAddr))
		}
	}
	if err := checkAuth(s, flagGiven(fs, "http")); err != "" {
		return nil, usageError(fs, err)
	}
	return s, nil
}

// checkAuth refuses an -auth the other settings cannot go with, returning
// why; "" means none.
func checkAuth(s *settings, httpGiven bool) string {
	switch {
	case s.auth == "":
		return ""
	case s.auth != authDev:
		return fmt.Sprintf("-auth %q: the one value is %q (a development authorization server)", s.auth, authDev)
	case !httpGiven:
		return "-auth dev needs -http: stdio has no authorization"
	}
	host, _, _ := net.SplitHostPort(s.httpAddr)
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Sprintf("-auth dev serves on loopback only: -http %q is not a loopback address (such as 127.0.0.1:8080)", s.httpAddr)
	}
	return ""
}

// flagSet defines the command's flags on a flag set of their own, writing
// into s; the caller's flag is returned unparsed.
func flagSet() (*flag.FlagSet, *settings, *string) {
	s := &settings{}
	fs := flag.NewFlagSet("everything", flag.ContinueOnError)
	fs.IntVar(&s.pageSize, "page-size", 10, "entries per page of every list (tools, resources, templates, prompts)")
	fs.IntVar(&s.maxMsg, "max-message-bytes", transport.DefaultMaxMessageBytes, "largest incoming message, in bytes")
	fs.DurationVar(&s.grace, "grace", time.Second, "how long in-flight calls may finish after stdin closes (with -http: after SIGINT or SIGTERM)")
	fs.StringVar(&s.sandbox, "sandbox", "", "directory for write_file and read_file (default $"+sandboxEnv+", else a new temporary directory)")
	caller := fs.String("caller", "", "who every request acts for: NAME[:SCOPE,...], such as ada:operator (default $"+callerEnv+", else no caller)")
	fs.IntVar(&s.completionRate, "completion-rate", 0, "completion/complete requests per second per caller, in bursts of twice that (0: the runtime's default, 20)")
	fs.DurationVar(&s.watchInterval, "watch-interval", defaultWatchInterval, "how often test://watched-resource changes (0: only when test_trigger_resource_update is called)")
	fs.BoolVar(&s.apps, "apps", false, "also serve an MCP App (io.modelcontextprotocol/ui): the view ui://everything/calculator.html and its tools calculator and calculator_add")
	fs.BoolVar(&s.skills, "skills", false, "also serve the Skills extension (io.modelcontextprotocol/skills) with two skills, pdf-processing and summarize, and their files as resources (for the conformance suite's sep-2640-* scenarios)")
	fs.BoolVar(&s.gateway, "gateway", false, "serve through mcpwire's gateway package in this process, as its one upstream (names as they are): what the gateway itself costs, without another process's hop (bench/run-gateway.sh)")
	fs.BoolVar(&s.fixtures, "fixtures", false, "also serve the fixtures: the tools panic and broken_contract, the template test://items/{n} (for tests)")
	fs.DurationVar(&s.inputStateTTL, "input-state-ttl", 15*time.Minute, "how long a 2026-07-28 requestState stays valid: a retry with an older one gets -32602")
	fs.DurationVar(&s.clientRequestTimeout, "client-request-timeout", 5*time.Minute, "how long a legacy call waits for the client's answer to an elicitation, sampling or roots request")
	fs.DurationVar(&s.taskTTL, "task-ttl", time.Hour, "how long a task (the tasks extension) is kept after its last update, its ttlMs: past it the tasks methods answer -32602 unknown task")
	fs.StringVar(&s.httpAddr, "http", "", "serve over Streamable HTTP at http://ADDR/mcp instead of stdio, such as 127.0.0.1:8080 (port 0: a free port, logged)")
	fs.StringVar(&s.auth, "auth", "", "with -http on a loopback address: \"dev\" protects the endpoint with OAuth 2.1, tokens coming from a development authorization server started on a loopback port (its URL logged) that approves every request: for development and tests only")
	fs.StringVar(&s.instance, "instance", "", "this instance's name in a deployment, such as i1: its legacy session ids start with it (default $"+instanceEnv+")")
	fs.StringVar(&s.stateKey, "state-key", "", "the secret, at least 32 characters, that seals cursors and requestState; the same on every instance (default $"+stateKeyEnv+", else random per process)")
	fs.StringVar(&s.redis, "redis", "", "HOST:PORT of the Redis server that carries list changes and resource updates between instances (default $"+redisEnv+", else none)")
	fs.StringVar(&s.cpuprofile, "cpuprofile", "", "write a CPU profile to this file (for benchmarking)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
	}
	return fs, s, caller
}

// flagGiven reports whether the command line set the named flag.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// usageError reports msg and the usage, as the flag package does for its
// own errors.
func usageError(fs *flag.FlagSet, msg string) error {
	fmt.Fprintln(fs.Output(), msg)
	fs.Usage()
	return errors.New(msg)
}

// parseCaller reads a caller given as NAME[:SCOPE,...]: "ada" is a caller
// without scopes, "ada:operator,auditor" one with two. The empty string
// means no caller (nil).
func parseCaller(spec string) (*auth.Principal, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	name, scopes, _ := strings.Cut(spec, ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fmt.Errorf("caller %q has no name before the colon: give it as NAME[:SCOPE,...], such as ada:operator", spec)
	}
	p := &auth.Principal{Subject: name}
	for sc := range strings.SplitSeq(scopes, ",") {
		if sc = strings.TrimSpace(sc); sc != "" {
			p.Scopes = append(p.Scopes, sc)
		}
	}
	return p, nil
}
