// Command limit is the "limit" server of the stdio benchmark (bench/run.sh):
// the least a Go program can do to answer mcpload's calls correctly, so
// that the other servers' figures can be read as a multiple of what this
// machine allows. It answers initialize, tools/list (one tool, echo)
// and tools/call echo over newline-delimited stdio, on one goroutine, and
// ignores notifications.
//
//	limit -mode scan   find id and params.arguments.text with a hand-written
//	                   scanner and copy the raw JSON string into the reply
//	limit -mode json   decode each line with encoding/json into a struct and
//	                   encode the reply with encoding/json
//
// It is not an MCP server: it checks nothing it does not need, keeps no
// session and refuses nothing but what it cannot parse. Responses are
// buffered and flushed when no further input is already buffered, so that
// a pipelined burst is answered with few writes.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
)

const (
	initResult = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"limit","version":"0"}}`
	listResult = `{"tools":[{"name":"echo","description":"Return the given text unchanged.","inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"the text to return unchanged"}},"required":["text"]}}]}`
)

func main() {
	mode := flag.String("mode", "scan", "how requests are read: scan (hand-written scanner) or json (encoding/json)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `FILE`")
	flag.Parse()
	if *cpuprofile != "" {
		if f, err := os.Create(*cpuprofile); err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	var answer func(line, out []byte) []byte
	switch *mode {
	case "scan":
		answer = answerScan
	case "json":
		answer = answerJSON
	default:
		fmt.Fprintf(os.Stderr, "limit: unknown -mode %q\n", *mode)
		os.Exit(2)
	}
	if err := serve(os.Stdin, os.Stdout, answer); err != nil {
		fmt.Fprintln(os.Stderr, "limit:", err)
	}
}

// serve answers each line of r on w until r ends.
func serve(r io.Reader, w io.Writer, answer func(line, out []byte) []byte) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	var out, long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it (the one copy a stream reader cannot
			// avoid, since the line's size is not known in advance).
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 1 {
			out = answer(line, out[:0])
			if len(out) > 0 {
				out = append(out, '\n')
				if len(out) > bw.Available() && bw.Buffered() == 0 {
					_, werr := w.Write(out) // large: no copy into the buffer
					if werr != nil {
						return werr
					}
				} else if _, werr := bw.Write(out); werr != nil {
					return werr
				}
			}
			if cap(out) > 1<<20 {
				out = nil
			}
			if cap(long) > 1<<20 {
				long = nil
			}
		}
		if br.Buffered() == 0 || err != nil {
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// reply appends a response with a raw result to out.
func reply(out, id []byte, result string) []byte {
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}')
}

// replyError appends an error response to out (id null when not known).
func replyError(out, id []byte, code int, msg string) []byte {
	if len(id) == 0 {
		id = []byte("null")
	}
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"error":{"code":`...)
	out = strconv.AppendInt(out, int64(code), 10)
	out = append(out, `,"message":`...)
	out = strconv.AppendQuote(out, msg)
	return append(out, "}}"...)
}

// answerScan answers one line read with the hand-written scanner.
func answerScan(line, out []byte) []byte {
	var f fields
	if !f.scan(line) {
		return replyError(out, f.id, -32700, "parse error")
	}
	if f.id == nil {
		return out // a notification
	}
	switch string(f.method) {
	case `"initialize"`:
		return reply(out, f.id, initResult)
	case `"tools/list"`:
		return reply(out, f.id, listResult)
	case `"tools/call"`:
		if string(f.name) != `"echo"` || f.text == nil {
			return replyError(out, f.id, -32602, "want the echo tool with a string text")
		}
		out = append(out, `{"jsonrpc":"2.0","id":`...)
		out = append(out, f.id...)
		out = append(out, `,"result":{"content":[{"type":"text","text":`...)
		out = append(out, f.text...) // the raw JSON string, escapes and all
		return append(out, `}]}}`...)
	}
	return replyError(out, f.id, -32601, "method not found")
}

// request is a line as answerJSON decodes it.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string `json:"name"`
		Arguments struct {
			Text *string `json:"text"`
		} `json:"arguments"`
	} `json:"params"`
}

// callResult is the result answerJSON encodes for an echo.
type callResult struct {
	Content []textBlock `json:"content"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// answerJSON answers one line decoded and encoded with encoding/json.
func answerJSON(line, out []byte) []byte {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return replyError(out, nil, -32700, "parse error")
	}
	if req.ID == nil {
		return out
	}
	switch req.Method {
	case "initialize":
		return reply(out, req.ID, initResult)
	case "tools/list":
		return reply(out, req.ID, listResult)
	case "tools/call":
		if req.Params.Name != "echo" || req.Params.Arguments.Text == nil {
			return replyError(out, req.ID, -32602, "want the echo tool with a string text")
		}
		b, err := json.Marshal(callResult{Content: []textBlock{{Type: "text", Text: *req.Params.Arguments.Text}}})
		if err != nil {
			return replyError(out, req.ID, -32603, err.Error())
		}
		out = append(out, `{"jsonrpc":"2.0","id":`...)
		out = append(out, req.ID...)
		out = append(out, `,"result":`...)
		out = append(out, b...)
		return append(out, '}')
	}
	return replyError(out, req.ID, -32601, "method not found")
}
