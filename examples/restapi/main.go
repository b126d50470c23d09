package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/oauth"
	"github.com/mcpwire/mcpwire/tool"
)

// The upstream API's to-do, and the tools' arguments and results; the
// schemas are inferred from them.
type (
	todo struct {
		ID    int    `json:"id"`
		Title string `json:"title"`
		Done  bool   `json:"done"`
	}
	listArgs struct {
		Open bool `json:"open,omitempty" description:"List only the to-dos not done yet."`
	}
	todoList struct {
		Todos []todo `json:"todos"`
	}
	addArgs struct {
		Title string `json:"title" description:"What there is to do." jsonschema:"minLength=1"`
	}
)

// config is what the server needs to run: where the upstream API is,
// the URL this endpoint is reached at, the authorization server, and the
// token verifier.
type config struct {
	API, Resource, Issuer string
	Verifier              oauth.Verifier
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "the address to serve on")
	api := flag.String("api", "http://127.0.0.1:9000", "the base URL of the to-do API")
	issuer := flag.String("issuer", "http://127.0.0.1:9001", "the authorization server that issues tokens")
	flag.Parse()
	token := os.Getenv("RESTAPI_TOKEN")
	if token == "" {
		token = rand.Text()
		log.Printf("RESTAPI_TOKEN is unset; for development use Authorization: Bearer %s", token)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err = serve(ctx, ln, config{
		API: *api, Resource: "http://" + ln.Addr().String() + "/mcp", Issuer: *issuer,
		Verifier: oauth.StaticTokens(map[string]*auth.Principal{ // development only
			token: {Subject: "developer", Scopes: []string{"todos:read", "todos:write"}},
		}),
	})
	if err != nil {
		log.Fatal(err)
	}
}

// serve serves the tools on ln, behind the token check, until ctx ends.
func serve(ctx context.Context, ln net.Listener, cfg config) error {
	rs, err := oauth.NewResourceServer(cfg.Verifier, oauth.Options{
		Resource:             cfg.Resource,
		AuthorizationServers: []string{cfg.Issuer},
		ScopesSupported:      []string{"todos:read", "todos:write"},
		RequiredScopes:       []string{"todos:read"},
	})
	if err != nil {
		return err
	}
	h := mcphttp.NewHandler(newServer(upstream{base: strings.TrimSuffix(cfg.API, "/"), client: &http.Client{Timeout: 10 * time.Second}}), nil)
	mux := http.NewServeMux()
	rs.Mount(mux, h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	hs.RegisterOnShutdown(h.Close)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newServer builds the MCP server whose tools call api.
func newServer(api upstream) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "restapi", Version: "0.1.0"}, nil)
	srv.MustAddTool(tool.New("list_todos", "Lists the to-dos of the to-do service.",
		func(ctx context.Context, in listArgs) (todoList, error) {
			var all []todo
			if err := api.do(ctx, http.MethodGet, "/todos", nil, &all); err != nil {
				return todoList{}, err
			}
			out := todoList{Todos: []todo{}}
			for _, t := range all {
				if !in.Open || !t.Done {
					out.Todos = append(out.Todos, t)
				}
			}
			return out, nil
		},
		tool.WithTitle("List to-dos"), tool.ReadOnly(true), tool.OpenWorld(true)))
	srv.MustAddTool(tool.New("add_todo", "Adds a to-do to the to-do service.",
		func(ctx context.Context, in addArgs) (todo, error) {
			var t todo
			return t, api.do(ctx, http.MethodPost, "/todos", addArgs{Title: in.Title}, &t)
		},
		tool.WithTitle("Add a to-do"), tool.WithScopes("todos:write"),
		tool.ReadOnly(false), tool.Destructive(false), tool.Idempotent(false), tool.OpenWorld(true)))
	return srv
}

// upstream is the to-do API.
type upstream struct {
	base   string
	client *http.Client
}

// do sends a request with body (nil for none) as JSON and decodes the
// JSON answer into out. An error answer becomes the tool's error, which
// the model reads, with an excerpt of the body.
func (u upstream) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := u.client.Do(req)
	if err != nil {
		log.Printf("restapi: %s %s: %v", method, path, err) // the upstream's address stays in the log
		return errors.New("the to-do service cannot be reached; try again later")
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("reading the to-do service's answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("the to-do service answered %s: %.200s", resp.Status, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the to-do service answered something that is not a to-do: %w", err)
	}
	return nil
}
