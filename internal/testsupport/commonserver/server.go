// Command commonserver is the common server issue 26 counts imports on:
// typed tools, a static resource, a resource template, a prompt with
// completion, elicitation and progress, served over stdio or, with -http,
// over Streamable HTTP. Served over stdio it imports three mcpwire
// packages (mcp, tool, ask); over HTTP a fourth (mcphttp). Its test holds
// those counts.
package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// The release tool's input, its output, and the form it asks the user to
// fill in.
type (
	releaseArgs struct {
		Service string `json:"service" description:"The service to release."`
		Steps   int    `json:"steps" description:"How many steps the release takes."`
	}
	release struct {
		Released bool   `json:"released"`
		Note     string `json:"note"`
	}
	approval struct {
		Approve bool `json:"approve" description:"Release now?"`
	}
)

// services are the names the completion providers suggest from.
var services = []string{"billing", "catalog", "checkout"}

// newServer builds the server.
func newServer() *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "commonserver", Version: "0.1.0"}, nil)
	srv.MustAddTool(tool.New("release", "Releases a service, step by step, once the user approves.",
		func(ctx context.Context, in releaseArgs) (release, error) {
			reply, err := ask.ElicitAs[approval](ctx, "Release "+in.Service+"?", ask.Key("approve"))
			if err != nil {
				return release{}, err
			}
			if !reply.Accepted() || !reply.Content.Approve {
				return release{Note: "not approved"}, nil
			}
			for step := range in.Steps {
				if err := mcp.ReportProgress(ctx, float64(step+1), float64(in.Steps), "releasing"); err != nil {
					return release{}, err
				}
			}
			mcp.Logger(ctx).Info("released", "service", in.Service)
			return release{Released: true, Note: fmt.Sprintf("%s released in %d steps", in.Service, in.Steps)}, nil
		}))
	srv.MustAddResource(mcp.Resource{
		URI: "config://services", Name: "services", MimeType: "text/plain",
		Read: mcp.StaticRead(strings.Join(services, "\n")),
	})
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{
		URITemplate: "service://{name}/status", Name: "status", MimeType: "text/plain",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			for _, s := range services {
				if s == vars["name"] {
					return []mcp.ResourceContents{mcp.TextContents(uri, "text/plain", s+" is up")}, nil
				}
			}
			return nil, fmt.Errorf("service %q: %w", vars["name"], mcp.ErrResourceNotFound)
		},
		Complete: map[string]mcp.CompleteFunc{"name": mcp.CompletePrefix(services...)},
	})
	type postmortemArgs struct {
		Service string `json:"service" description:"The service that failed."`
	}
	postmortem := mcp.NewPrompt("postmortem", "Drafts a postmortem for a failed release.",
		func(_ context.Context, in postmortemArgs) (*mcp.PromptResult, error) {
			return &mcp.PromptResult{Messages: []mcp.PromptMessage{
				mcp.UserMessage("Draft a postmortem for the failed release of " + in.Service + "."),
			}}, nil
		},
		mcp.WithTitle("Postmortem"))
	postmortem.Complete = map[string]mcp.CompleteFunc{"service": mcp.CompletePrefix(services...)}
	srv.MustAddPrompt(postmortem)
	return srv
}
