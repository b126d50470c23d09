package scenario

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// Result fields that only the modern era has.
var modernOnly = []string{"resultType", "ttlMs", "cacheScope"}

const serverInfoKey = "io.modelcontextprotocol/serverInfo"

func (x *run) checkWire() {
	lines := x.wire.Lines()
	if err := wireProblem(lines, x.modern); err != nil {
		x.r.Fail("wire", "%v", err)
		return
	}
	n := 0
	for _, l := range lines {
		if l.Dir == harness.ServerToClient {
			n++
		}
	}
	era := map[bool]string{true: "modern results carry resultType (complete, or input_required for a call) and serverInfo", false: "no modern-only result fields"}
	if !x.cfg.HTTP {
		x.r.Pass("wire", "%d server lines, all JSON-RPC 2.0 answering requests the client sent; %s", n, era[x.modern])
		return
	}
	how, err := httpProblem(lines, x.wire.Exchanges(), x.modern)
	if err != nil {
		x.r.Fail("wire", "%v", err)
		return
	}
	x.r.Pass("wire", "%d server messages, all JSON-RPC 2.0 answering requests the client sent; %s; %s", n, era[x.modern], how)
}

// wireProblem checks every line the server wrote: valid JSON-RPC, responses
// only to requests the client made, no requests to a modern client, and
// result fields that match the era. The modern rules apply to requests that
// carried the modern _meta; the legacy rules to the others.
func wireProblem(lines []harness.Line, modern bool) error {
	asked := map[string]harness.Line{}
	for _, l := range lines {
		if l.Dir == harness.ClientToServer {
			if l.IsRequest() {
				asked[l.ID] = l
			}
			continue
		}
		switch {
		case !l.Valid:
			return fmt.Errorf("line %d is not JSON-RPC 2.0: %s", l.Seq, l.Head)
		case l.IsRequest() && modern:
			return fmt.Errorf("a request to a modern client: %s", l.Head)
		case !l.IsResponse() || l.IsError:
			continue
		}
		req, ok := asked[l.ID]
		if !ok {
			return fmt.Errorf("a response to id %s, which the client never sent: %s", l.ID, l.Head)
		}
		if err := resultProblem(l, req.Method, requestVersion(req) >= ModernVersion); err != nil {
			return fmt.Errorf("answer to %s: %w", req.Method, err)
		}
	}
	return nil
}

// requestVersion is the modern protocol version a request carried in its
// _meta, or "".
func requestVersion(req harness.Line) string {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(req.Params, &p)
	var v string
	_ = json.Unmarshal(p.Meta["io.modelcontextprotocol/protocolVersion"], &v)
	return v
}

// inputRequiredMethods are the requests a modern server may answer with
// resultType "input_required".
var inputRequiredMethods = []string{"tools/call", "prompts/get", "resources/read"}

func resultProblem(l harness.Line, method string, modern bool) error {
	var res map[string]json.RawMessage
	if err := json.Unmarshal(l.Result, &res); err != nil {
		return fmt.Errorf("result is no object: %.200s", l.Result)
	}
	if !modern {
		for _, k := range modernOnly {
			if _, ok := res[k]; ok {
				return fmt.Errorf("legacy result carries %q: %s", k, l.Head)
			}
		}
		return nil
	}
	switch rt := string(res["resultType"]); {
	case rt == `"input_required"` && !slices.Contains(inputRequiredMethods, method):
		return fmt.Errorf(`resultType "input_required" for %s, which cannot take one: %s`, method, l.Head)
	case rt != `"complete"` && rt != `"input_required"`:
		return fmt.Errorf(`modern result without resultType "complete" (or "input_required"): %s`, l.Head)
	}
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(res["_meta"], &meta)
	if len(meta[serverInfoKey]) == 0 {
		return fmt.Errorf("modern result without _meta[%q]: %s", serverInfoKey, l.Head)
	}
	return nil
}

func (x *run) checkExit() {
	if x.sess != nil {
		closed := make(chan error, 1)
		go func() { closed <- x.sess.Close() }()
		select {
		case err := <-closed:
			if err != nil {
				x.r.Info("the SDK's Close returned %v", err)
			}
		case <-time.After(ExitLimit + time.Second):
			x.r.Info("the SDK's Close had not returned after %v", ExitLimit+time.Second)
		}
	}
	closing := ""
	if x.cfg.HTTP {
		closing = "; the SDK's Close sent no DELETE"
		for _, ex := range x.wire.Exchanges() {
			if ex.Method != http.MethodDelete {
				continue
			}
			if ex.Status != http.StatusOK && ex.Status != http.StatusNoContent && ex.Status != http.StatusMethodNotAllowed {
				x.r.Fail("exit", "the SDK's DELETE, ending the session: %s", ex)
				return
			}
			closing = fmt.Sprintf("; the SDK's Close sent DELETE, answered %d", ex.Status)
		}
	}
	exit := x.srv.WaitExit(ExitLimit)
	if !exit.Exited || exit.Code != 0 || exit.After > ExitLimit {
		x.r.Fail("exit", "%v%s%s", exit, closing, stderrTail(x.srv))
		return
	}
	x.r.Pass("exit", "%v%s", exit, closing)
}
