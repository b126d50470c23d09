package golden

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// serverID is one expected server request's id mapped to the one the
// server chose, with where the expected line stands.
type serverID struct {
	actual    string // the server's id, as JSON text
	step, idx int    // the expected line, for Rewrite
}

// mapServerID returns exp with its id replaced by act's when both are
// requests (Options.ServerIDs), and remembers the mapping; a server's
// notifications/cancelled naming a mapped id gets the mapped requestId.
func (r *replayer) mapServerID(step, idx int, exp, act any) any {
	if !r.opts.ServerIDs {
		return exp
	}
	e, ok := exp.(map[string]any)
	a, ok2 := act.(map[string]any)
	if !ok || !ok2 {
		return exp
	}
	_, eMethod := e["method"]
	_, aMethod := a["method"]
	eID, eHas := e["id"]
	aID, aHas := a["id"]
	out := make(map[string]any, len(e))
	for k, v := range e {
		out[k] = v
	}
	switch {
	case eMethod && aMethod && eHas && aHas:
		if r.o.serverIDs == nil {
			r.o.serverIDs = map[string]serverID{}
		}
		r.o.serverIDs[idText(eID)] = serverID{actual: idText(aID), step: step, idx: idx}
		out["id"] = aID
	case e["method"] == "notifications/cancelled" && !eHas:
		params, _ := e["params"].(map[string]any)
		m, mapped := r.o.serverIDs[idText(params["requestId"])]
		if params == nil || !mapped {
			return exp
		}
		p := make(map[string]any, len(params))
		for k, v := range params {
			p[k] = v
		}
		var id any
		if unmarshal(m.actual, &id) == nil {
			p["requestId"] = id
		}
		out["params"] = p
	default:
		return exp
	}
	return out
}

// idText is an id's JSON text, the key of the mapping.
func idText(id any) string {
	b, _ := json.Marshal(id)
	return string(b)
}

// mapClientID returns a client line answering a mapped server request with
// the server's id in place of the transcript's, every other byte kept.
func (r *replayer) mapClientID(line string) string {
	if !r.opts.ServerIDs || len(r.o.serverIDs) == 0 {
		return line
	}
	return replaceResponseID(line, func(id string) (string, bool) {
		m, ok := r.o.serverIDs[id]
		return m.actual, ok
	})
}

// replaceResponseID replaces the id of line, when line is one response
// object (an id and no method), with what repl returns for its JSON text.
func replaceResponseID(line string, repl func(id string) (string, bool)) string {
	data := []byte(line)
	s := jsonx.Scanner{Collect: true}
	if _, ok := s.Scan(data); !ok || jsonx.FirstByte(data) != '{' {
		return line
	}
	var id *jsonx.Span
	for _, m := range s.Members() {
		switch m.Key.Text(data) {
		case "method":
			return line
		case "id":
			v := m.Value
			id = &v
		}
	}
	if id == nil {
		return line
	}
	var v any
	if unmarshal(line[id.Start:id.End], &v) != nil {
		return line
	}
	to, ok := repl(idText(v))
	if !ok {
		return line
	}
	return line[:id.Start] + to + line[id.End:]
}

// rewriteClientIDs makes a rewritten transcript's client answers carry the
// ids of the server requests written in it: an expected request kept (it
// matched) keeps its id and its answers, one replaced by what the server
// wrote gets its answers' ids replaced by the server's.
func (o *Outcome) rewriteClientIDs(tr *Transcript) {
	if len(o.serverIDs) == 0 {
		return
	}
	for i := range tr.Steps {
		tr.Steps[i].Client = replaceResponseID(tr.Steps[i].Client, func(id string) (string, bool) {
			m, ok := o.serverIDs[id]
			if !ok || o.matched[[2]int{m.step, m.idx}] {
				return "", false
			}
			return m.actual, true
		})
	}
}
