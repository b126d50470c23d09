package main

import (
	"slices"
	"strings"
)

// Texts the resource and prompt steps expect from cmd/everything.
const (
	staticText    = "This is the content of the static text resource."
	templateRead  = "test://template/42/data"
	templateText  = `{"id":"42","templateTest":true,"data":"Data for ID: 42"}`
	reviewStaging = "Review the deployment to staging"
)

// listenHonoured is what the listen step's acknowledgement must honour:
// tools, and of the two resources asked for only the one that exists.
const listenHonoured = `{"toolsListChanged":true,"resourceSubscriptions":["test://static-text"]}`

// readResult is the result of resources/read.
type readResult struct {
	ResultType string `json:"resultType"`
	TTLMs      *int   `json:"ttlMs"`
	CacheScope string `json:"cacheScope"`
	Contents   []struct {
		URI  string `json:"uri"`
		Text string `json:"text"`
	} `json:"contents"`
	Meta resultMeta `json:"_meta"`
}

// text is the first contents item's text.
func (r readResult) text() string {
	if len(r.Contents) == 0 {
		return ""
	}
	return r.Contents[0].Text
}

// resourcesAndPrompts reads a static resource, gets deployment_review for
// staging and completes its environment argument: the demo's server has no
// caller, so production is not among the values.
func (s *session) resourcesAndPrompts() {
	s.wide(func() {
		var r readResult
		if m, ok := s.response(s.request("resources/read", `{"uri":"test://static-text"}`)); ok && s.result(m, &r) {
			s.check(r.text() == staticText, "test://static-text reads %q, want %q", r.text(), staticText)
		}
		var p struct {
			Messages []struct {
				Role    string `json:"role"`
				Content struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"messages"`
		}
		if m, ok := s.response(s.request("prompts/get", `{"name":"deployment_review","arguments":{"environment":"staging"}}`)); ok && s.result(m, &p) {
			s.check(len(p.Messages) == 1 && p.Messages[0].Role == "user" && strings.HasPrefix(p.Messages[0].Content.Text, reviewStaging),
				"deployment_review rendered %+v, want one user message starting %q", p.Messages, reviewStaging)
		}
		var c struct {
			Completion struct {
				Values []string `json:"values"`
			} `json:"completion"`
		}
		params := `{"ref":{"type":"ref/prompt","name":"deployment_review"},"argument":{"name":"environment","value":""}}`
		if m, ok := s.response(s.request("completion/complete", params)); ok && s.result(m, &c) {
			s.check(slices.Equal(c.Completion.Values, []string{"development", "staging"}),
				"environment completes to %v, want [development staging] (no production without an operator)", c.Completion.Values)
		}
	})
}

// discoverAndRead asks for the versions and capabilities, then reads a
// resource through the template with the per-request _meta.
func (s *session) discoverAndRead() {
	s.discover()
	var r readResult
	var m message
	var ok bool
	s.wide(func() { m, ok = s.response(s.request("resources/read", `{"uri":"`+templateRead+`",`+modernMeta+`}`)) })
	if !ok || !s.result(m, &r) {
		return
	}
	s.check(r.text() == templateText, "%s reads %q, want %q", templateRead, r.text(), templateText)
	s.check(r.ResultType == "complete" && r.Meta.ServerInfo != nil, "the read lacks resultType complete or serverInfo")
	s.check(r.TTLMs != nil && *r.TTLMs >= 0 && (r.CacheScope == "public" || r.CacheScope == "private"),
		"the read's cache hints are missing or wrong: ttlMs %v, cacheScope %q", r.TTLMs, r.CacheScope)
}

// listenAndShutdown opens a subscription (its lines shown wide: the
// acknowledgement's subscriptionId comes last), then closes the server's
// stdin.
func (s *session) listenAndShutdown() {
	s.wide(s.listen)
	s.shutdown()
}
