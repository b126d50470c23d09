package gateway

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// Config is what a gateway serves: its upstreams and how their names are
// joined. ParseConfig reads one from YAML or JSON.
type Config struct {
	// Upstreams are the servers served as one; at least one.
	Upstreams []Upstream `yaml:"upstreams" json:"upstreams"`
	// Separator joins an upstream's name and a tool's or prompt's name
	// (default "_": files_read).
	Separator string `yaml:"separator,omitempty" json:"separator,omitempty"`
	// NoNamespace serves every name as its upstream gives it, for a
	// gateway in front of one server (or of servers whose names never
	// meet: a name two give is still a start-up error).
	NoNamespace bool `yaml:"noNamespace,omitempty" json:"noNamespace,omitempty"`
	// PageSize is the number of entries per page of the gateway's lists
	// (default: the server's, 50); Options.Server's PageSize, when set,
	// wins.
	PageSize int `yaml:"pageSize,omitempty" json:"pageSize,omitempty"`
}

// Upstream is one server behind the gateway: a command (stdio), a URL
// (Streamable HTTP, either era), or a server in the same process.
type Upstream struct {
	// Name namespaces what the upstream serves; letters, digits, '-' and
	// '_', unique.
	Name string `yaml:"name" json:"name"`
	// Command starts a stdio server: the program and its arguments.
	Command []string `yaml:"command,omitempty" json:"command,omitempty"`
	// Env are variables added to the gateway's environment for Command.
	Env map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
	// URL is a Streamable HTTP endpoint.
	URL string `yaml:"url,omitempty" json:"url,omitempty"`
	// Headers are sent with every HTTP request to URL (a static token).
	Headers map[string]string `yaml:"headers,omitempty" json:"headers,omitempty"`
	// ExcludeResources are resource URIs of this upstream the gateway does
	// not serve: how to settle a URI two upstreams list.
	ExcludeResources []string `yaml:"excludeResources,omitempty" json:"excludeResources,omitempty"`
	// ProtocolVersion pins the revision the gateway speaks to the
	// upstream, and so its era ("2025-11-25": legacy, initialize;
	// "2026-07-28": modern); empty detects the era as hosts do.
	ProtocolVersion string `yaml:"protocolVersion,omitempty" json:"protocolVersion,omitempty"`
	// ClientCredentials signs in to URL when it asks, as the gateway
	// itself (MCP authorization with OAuth's client credentials grant).
	ClientCredentials *ClientCredentials `yaml:"clientCredentials,omitempty" json:"clientCredentials,omitempty"`
	// SignIn signs in to URL when it asks (MCP authorization: OAuth 2.1
	// with package client/signin, any of its flows), from Go only.
	// Without it or ClientCredentials a protected upstream gets Headers'
	// static token, or nothing.
	SignIn *signin.Flow `yaml:"-" json:"-"`
	// Server is a server in the same process (from Go only). It is
	// reached without bytes or pipes, through a stateless endpoint of
	// the server's (mcp.Endpoint) in the 2026-07-28 era, each call served
	// on the goroutine that makes it; with a legacy ProtocolVersion, over
	// a pipe in that era.
	Server *mcp.Server `yaml:"-" json:"-"`
}

var upstreamName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// variable is a ${NAME} reference to the environment.
var variable = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// ParseConfig reads a configuration from YAML (JSON is YAML too) and
// expands ${NAME} in commands, environment values, URLs, header values
// and clientCredentials from the environment: a name the environment lacks is an error naming
// it (never an empty token sent quietly). It checks what Check checks.
func ParseConfig(data []byte) (*Config, error) {
	var c Config
	if err := yaml.UnmarshalWithOptions(data, &c, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("gateway: the configuration: %w", err)
	}
	var missing []string
	expand := func(s string) string {
		return variable.ReplaceAllStringFunc(s, func(ref string) string {
			name := ref[2 : len(ref)-1]
			v, ok := os.LookupEnv(name)
			if !ok {
				missing = append(missing, name)
			}
			return v
		})
	}
	for i := range c.Upstreams {
		u := &c.Upstreams[i]
		for j := range u.Command {
			u.Command[j] = expand(u.Command[j])
		}
		for k, v := range u.Env {
			u.Env[k] = expand(v)
		}
		u.URL = expand(u.URL)
		for k, v := range u.Headers {
			u.Headers[k] = expand(v)
		}
		if cc := u.ClientCredentials; cc != nil {
			for _, f := range []*string{&cc.ClientID, &cc.ClientSecret, &cc.PrivateKeyFile, &cc.KeyID, &cc.Issuer} {
				*f = expand(*f)
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("gateway: the configuration names variables the environment does not set: %s", strings.Join(missing, ", "))
	}
	return &c, c.Check()
}

// Check reports what is wrong with c: no upstream, an upstream without a
// valid unique name, or with not exactly one of Command, URL and Server.
func (c *Config) Check() error {
	if len(c.Upstreams) == 0 {
		return errors.New("gateway: the configuration lists no upstream")
	}
	if c.PageSize < 0 {
		return fmt.Errorf("gateway: pageSize %d is negative", c.PageSize)
	}
	seen := map[string]bool{}
	for i, u := range c.Upstreams {
		if !upstreamName.MatchString(u.Name) {
			return fmt.Errorf("gateway: upstream %d: name %q: letters, digits, '-' and '_' only, 1 to 64 of them", i+1, u.Name)
		}
		if seen[u.Name] {
			return fmt.Errorf("gateway: upstream %q is listed twice", u.Name)
		}
		seen[u.Name] = true
		n := 0
		for _, set := range []bool{len(u.Command) > 0, u.URL != "", u.Server != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("gateway: upstream %q: give exactly one of command and url", u.Name)
		}
		if u.ProtocolVersion != "" && protocol.EraOfVersion(u.ProtocolVersion) == protocol.EraUnknown {
			return fmt.Errorf("gateway: upstream %q: protocolVersion %q is not a revision (a date such as 2025-11-25)", u.Name, u.ProtocolVersion)
		}
		if (u.SignIn != nil || u.ClientCredentials != nil) && u.URL == "" {
			return fmt.Errorf("gateway: upstream %q: a sign-in needs a url", u.Name)
		}
		if u.SignIn != nil && u.ClientCredentials != nil {
			return fmt.Errorf("gateway: upstream %q: give at most one of SignIn and clientCredentials", u.Name)
		}
		if cc := u.ClientCredentials; cc != nil {
			if err := cc.check(); err != nil {
				return fmt.Errorf("gateway: upstream %q: %w", u.Name, err)
			}
		}
		if len(u.Headers) > 0 && u.URL == "" {
			return fmt.Errorf("gateway: upstream %q: headers need a url", u.Name)
		}
	}
	return nil
}

// separator returns the separator of namespaced names.
func (c *Config) separator() string {
	if c.Separator == "" {
		return "_"
	}
	return c.Separator
}
