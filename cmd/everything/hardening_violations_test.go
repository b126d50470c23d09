package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// callText sends a tools/call and returns the raw response line and the
// text of its first content block.
func callText(s *rawServer, id int, name, args string) (line, text string, isError bool) {
	s.t.Helper()
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":`, id, name) + args + "}}")
	line = s.next()
	var resp struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &resp); err != nil || len(resp.Result.Content) == 0 {
		s.t.Fatalf("response %.200q: %v", line, err)
	}
	return line, resp.Result.Content[0].Text, resp.Result.IsError
}

// A 12 MB echo call with a million unknown keys gets a short answer, soon,
// and the server's memory stays bounded: the violation list is capped, and
// finding the violations past the cap costs no more than counting them.
func TestManyViolationsAreCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("sends a 12 MB call")
	}
	const keys = 1_000_000
	var args bytes.Buffer
	args.WriteString(`{"text":"x"`)
	for i := range keys {
		fmt.Fprintf(&args, `,"k%d":0`, i)
	}
	args.WriteString("}")
	s := startRaw(t)
	s.initialize()
	start := time.Now()
	line, text, isError := callText(s, 1, "echo", args.String())
	elapsed := time.Since(start)
	peak := s.peakRSS()
	t.Logf("request %d bytes: response %d bytes in %v, peak RSS %d MiB", args.Len(), len(line), elapsed, peak>>20)
	if !isError {
		t.Errorf("not an isError result: %.200s", line)
	}
	if len(line) > 64<<10 {
		t.Errorf("response is %d bytes, want under 64 KiB", len(line))
	}
	if want := fmt.Sprintf("- … and %d more", keys-20); !strings.HasSuffix(text, want) {
		t.Errorf("text does not end with %q:\n%.2000s", want, text)
	}
	if n := strings.Count(text, "\n- "); n != 21 {
		t.Errorf("%d list lines, want 20 violations and the summary:\n%.2000s", n, text)
	}
	if elapsed > 5*time.Second {
		t.Errorf("took %v, want a few seconds at most", elapsed)
	}
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MiB, want under 300 MiB", peak>>20)
	}
}

// Client input quoted in a violation is clipped: a 10 MiB unknown key in
// the pointer, a 10 MiB value in an enum message.
func TestHugeInputIsClipped(t *testing.T) {
	huge := strings.Repeat("k", 10<<20)
	s := startRaw(t)
	s.initialize()
	line, text, _ := callText(s, 1, "echo", `{"text":"x","`+huge+`":0}`)
	want := "invalid arguments for tool echo:\n- /" + strings.Repeat("k", 64) + "… (10485760 bytes): additional property is not allowed (additionalProperties)"
	if text != want {
		t.Errorf("unknown 10 MiB key (%d-byte response):\n got %.300q\nwant %.300q", len(line), text, want)
	}
	line, text, _ = callText(s, 2, "route_report", `{"region":"eu","date":"2025-03-14","service":"`+huge+`"}`)
	want = "invalid arguments for tool route_report:\n- /service: \"" + strings.Repeat("k", 64) + "…\" (10485760 bytes) should be one of \"standard\", \"express\" (enum)"
	if text != want {
		t.Errorf("10 MiB enum value (%d-byte response):\n got %.300q\nwant %.300q", len(line), text, want)
	}
}
