package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
)

// wireHTTP is the floor over Streamable HTTP: one POST per call on the
// target's http.Client, with the headers a 2026-07-28 request needs.
type wireHTTP struct {
	calls  wireCalls
	url    string
	client *http.Client
	next   atomic.Int64
	// call and discover are the headers of the two kinds of request. They
	// are shared by every request and never written once built: neither
	// http.Client nor its Transport modifies a request's Header.
	call, discover http.Header
}

// connectWireHTTP sends server/discover to url.
func connectWireHTTP(ctx context.Context, url string, client *http.Client) (session, error) {
	s := &wireHTTP{url: url, client: client,
		call:     wireHeader("tools/call", "echo"),
		discover: wireHeader("server/discover", "")}
	answer, err := s.post(ctx, s.discover, []byte(`,"method":"server/discover","params":`+wireDiscover+`}`))
	if err == nil {
		err = checkDiscover(answer)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// wireHeader returns the headers of a 2026-07-28 POST of method, with
// Mcp-Name when name is not empty.
func wireHeader(method, name string) http.Header {
	h := http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {wireRevision},
		"Mcp-Method":           {method},
	}
	if name != "" {
		h["Mcp-Name"] = []string{name}
	}
	return h
}

// post sends one request, its id fresh and its text after the id suffix,
// and returns the response body, which must carry the id.
func (s *wireHTTP) post(ctx context.Context, h http.Header, suffix []byte) ([]byte, error) {
	id := s.next.Add(1)
	body := appendRequest(make([]byte, 0, len(wireRequest)+20+len(suffix)), id, suffix)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = h
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var answer []byte
	if n := resp.ContentLength; n > 0 && n < 1<<20 {
		answer = make([]byte, n)
		_, err = io.ReadFull(resp.Body, answer)
	} else {
		answer, err = io.ReadAll(resp.Body)
	}
	if err != nil {
		return nil, fmt.Errorf("wire: reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("wire: HTTP status %d: %.200s", resp.StatusCode, answer)
	}
	if got, ok := responseID(answer); !ok || got != id {
		return nil, fmt.Errorf("wire: answer to request %s: %.200s", strconv.FormatInt(id, 10), answer)
	}
	return answer, nil
}

func (s *wireHTTP) echo(ctx context.Context, _ map[string]any, want string) error {
	c := s.calls.get(want)
	answer, err := s.post(ctx, s.call, c.suffix)
	if err != nil {
		return err
	}
	return c.check(answer)
}

func (s *wireHTTP) revision() string { return wireRevision }
func (s *wireHTTP) close() error     { return nil }
