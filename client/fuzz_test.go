package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/protocol"
)

// FuzzAnswers has a server answer tools/list and tools/call with whatever
// the fuzzer writes: the client must return a result or an error, never
// panic. An answer whose id cannot be read answers nothing, so such a call
// ends with its context, as every wait does.
func FuzzAnswers(f *testing.F) {
	f.Add(oneTool, okResult)
	f.Add(`{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":["a"]}}]}`, `{"content":[],"structuredContent":{"a":1}}`)
	f.Add(`{"tools":[{"name":"t","inputSchema":{"$ref":"#/x"}}],"nextCursor":""}`, `{"content":[{"type":"image","data":"!!","mimeType":"x"}]}`)
	f.Add(`{"tools":null}`, `null`)
	f.Add(`[]`, `{"content":"x"}`)
	f.Add(`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A B"}}}}]}`, `{"content":[{"type":"resource","resource":{"uri":"a:b"}}]}`)
	f.Fuzz(func(t *testing.T, list, call string) {
		// Lines that are not JSON answer nothing (TestWhatServersGetWrong
		// has them): here a text that is not JSON is sent as a JSON string,
		// so that every answer reaches the gates.
		list, call = asJSON(list), asJSON(call)
		pages := 0
		c, err := serveRaw(t, func(m, id string) []string {
			switch m {
			case protocol.MethodListTools:
				pages++
				if pages > 3 {
					return []string{result(id, `{"tools":[]}`)}
				}
				return []string{result(id, list)}
			case protocol.MethodCallTool:
				return []string{result(id, call)}
			}
			return []string{result(id, `{}`)}
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		calls := 0
		for tl, err := range c.Tools(ctx) {
			if err != nil || calls == 3 {
				break
			}
			calls++
			cctx, ccancel := context.WithTimeout(ctx, 300*time.Millisecond)
			res, err := c.CallTool(cctx, tl.Name, nil)
			ccancel()
			if (res == nil) == (err == nil) {
				t.Fatalf("CallTool gave %v and %v", res, err)
			}
		}
	})
}

// asJSON returns s when it is JSON, else s as a JSON string; on one line.
func asJSON(s string) string {
	if !json.Valid([]byte(s)) {
		b, _ := json.Marshal(s)
		s = string(b)
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(s)) != nil {
		return `"?"`
	}
	return buf.String()
}
