package scenario

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// describeHandshake summarises what the client sent before its first
// tools/list and what the server answered, such as
// `server/discover [2026-07-28] → error -32601 "…"; initialize [2025-11-25] → 2025-11-25; notifications/initialized`.
func describeHandshake(lines []harness.Line) string {
	var parts []string
	for _, l := range lines {
		if l.Dir != harness.ClientToServer {
			continue
		}
		if l.Method == "tools/list" {
			break
		}
		if !l.IsRequest() {
			parts = append(parts, l.Method)
			continue
		}
		desc := l.Method
		if v := requestedVersion(l); v != "" {
			desc += " [" + v + "]"
		}
		desc += " → " + describeResponse(lines, l.ID)
		parts = append(parts, desc)
	}
	if len(parts) == 0 {
		return "(the client wrote nothing)"
	}
	return strings.Join(parts, "; ")
}

// requestedVersion is the protocol version a request asks for: initialize's
// protocolVersion, or the modern _meta key.
func requestedVersion(l harness.Line) string {
	var p struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Meta            map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(l.Params, &p) != nil {
		return ""
	}
	if p.ProtocolVersion != "" {
		return p.ProtocolVersion
	}
	var v string
	_ = json.Unmarshal(p.Meta["io.modelcontextprotocol/protocolVersion"], &v)
	return v
}

func describeResponse(lines []harness.Line, id string) string {
	for _, l := range lines {
		if l.Dir != harness.ServerToClient || !l.IsResponse() || l.ID != id {
			continue
		}
		if l.IsError {
			return fmt.Sprintf("error %d %q", l.ErrCode, l.ErrMsg)
		}
		var res struct {
			ProtocolVersion   string   `json:"protocolVersion"`
			SupportedVersions []string `json:"supportedVersions"`
		}
		_ = json.Unmarshal(l.Result, &res)
		switch {
		case res.ProtocolVersion != "":
			return res.ProtocolVersion
		case res.SupportedVersions != nil:
			return "supportedVersions " + strings.Join(res.SupportedVersions, ",")
		}
		return "ok"
	}
	return "no answer"
}
