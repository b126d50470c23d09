package scenario

import (
	"fmt"
	"net/http"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// modernStatus is the HTTP status of a 2026-07-28 response carrying a
// JSON-RPC error with the given code, by the status table of that
// revision's Streamable HTTP transport: parse errors, invalid requests and
// params, header mismatches, missing client capabilities and unsupported
// versions are 400, an unknown method 404, any other error 200.
func modernStatus(code int) int {
	switch code {
	case -32700, -32600, -32602, -32020, -32021, -32022:
		return http.StatusBadRequest
	case -32601:
		return http.StatusNotFound
	}
	return http.StatusOK
}

// httpProblem checks the HTTP exchanges behind the transcript: each
// response came back on the POST that carried its request; a POST of
// requests got 200 with application/json or text/event-stream (in
// 2026-07-28, a 4xx by the status table when the answer is such an error),
// a POST of notifications and responses alone 202; a legacy session's id,
// given with the initialize answer, is on every later request, and the
// modern era has no session id at all. It returns what it checked.
func httpProblem(lines []harness.Line, exchanges []harness.Exchange, modern bool) (string, error) {
	asked := map[string]harness.Line{}
	answer := map[int][]harness.Line{} // exchange → the responses it carried
	for _, l := range lines {
		switch {
		case l.Dir == harness.ClientToServer && l.IsRequest():
			asked[l.ID] = l
		case l.Dir == harness.ServerToClient && l.IsResponse():
			req, ok := asked[l.ID]
			if !ok {
				continue // the JSON-RPC check reports it
			}
			if l.Exchange != req.Exchange {
				return "", fmt.Errorf("the answer to %s (id %s, sent in exchange #%d) came in exchange #%d: %s", req.Method, req.ID, req.Exchange, l.Exchange, l.Head)
			}
			answer[l.Exchange] = append(answer[l.Exchange], l)
		}
	}
	session := ""
	posts, gets, streams := 0, 0, 0
	for _, ex := range exchanges {
		if ex.Err != "" {
			continue // the client gave the request up (a cancel); nothing came back
		}
		if modern && (ex.NewSession != "" || ex.SessionID != "") {
			return "", fmt.Errorf("a session id in the modern era: %s", ex)
		}
		if !modern {
			switch {
			case session == "" && ex.NewSession != "":
				session = ex.NewSession
			case session != "" && ex.SessionID != session:
				return "", fmt.Errorf("a request without the session's id %s: %s", session, ex)
			case session != "" && ex.NewSession != "" && ex.NewSession != session:
				return "", fmt.Errorf("the server changed the session id: %s", ex)
			}
		}
		switch ex.Method {
		case http.MethodPost:
			posts++
			if err := postProblem(ex, answer[ex.N], modern); err != nil {
				return "", err
			}
			if ex.Type == "text/event-stream" {
				streams++
			}
		case http.MethodGet:
			gets++
			if !modern && (ex.Status != http.StatusOK || ex.Type != "text/event-stream") {
				return "", fmt.Errorf("the legacy session's GET stream: %s", ex)
			}
		}
	}
	if !modern && session == "" {
		return "", fmt.Errorf("no Mcp-Session-Id in the answer to initialize")
	}
	what := fmt.Sprintf("%d POSTs (%d answered with SSE) and %d GETs, every answer on its request's POST", posts, streams, gets)
	if modern {
		return what + ", no session id", nil
	}
	return what + ", all in session " + session, nil
}

// postProblem checks the status and content type of one POST.
func postProblem(ex harness.Exchange, answers []harness.Line, modern bool) error {
	if ex.Requests == 0 {
		if ex.Status != http.StatusAccepted {
			return fmt.Errorf("a POST of notifications or responses only, want 202: %s", ex)
		}
		return nil
	}
	want := http.StatusOK
	if modern && len(answers) == 1 && answers[0].IsError {
		want = modernStatus(answers[0].ErrCode)
	}
	if ex.Status != want {
		detail := ""
		if len(answers) == 1 {
			detail = ": " + answers[0].Head
		}
		return fmt.Errorf("want status %d: %s%s", want, ex, detail)
	}
	if ex.Type != "application/json" && ex.Type != "text/event-stream" {
		return fmt.Errorf("a POST of requests answered with neither application/json nor text/event-stream: %s", ex)
	}
	return nil
}
