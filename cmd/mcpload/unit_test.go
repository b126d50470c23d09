package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseStatCPU(t *testing.T) {
	tests := []struct {
		stat    string
		want    time.Duration
		wantErr bool
	}{
		{"42 (srv) S 1 42 42 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 1 0", 1750 * time.Millisecond, false},
		{"42 (a b) c)) R 1 42 42 0 -1 0 0 0 0 0 3 4 0 0 20 0", 70 * time.Millisecond, false},
		{"42 srv S 1", 0, true},
		{"42 (srv) S 1 2 3", 0, true},
		{"42 (srv) S 1 42 42 0 -1 0 0 0 0 0 x 4 0", 0, true},
	}
	for _, tc := range tests {
		got, err := parseStatCPU(tc.stat)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("parseStatCPU(%q) = %v, %v; want %v, error %v", tc.stat, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestReadOwnProcess(t *testing.T) {
	st, err := readMemStatus(os.Getpid())
	if err != nil || st.RSS <= 0 || st.HWM < st.RSS/2 {
		t.Errorf("readMemStatus(self) = %+v, %v", st, err)
	}
	if _, err := readCPUTime(os.Getpid()); err != nil {
		t.Errorf("readCPUTime(self): %v", err)
	}
}

func TestParseSizes(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"1MiB,8MiB", []int{1 << 20, 8 << 20}, false},
		{" 4096 , 2KiB ,", []int{4096, 2048}, false},
		{"", nil, false},
		{"1GB", nil, true},
		{"-1", nil, true},
	}
	for _, tc := range tests {
		got, err := parseSizes(tc.in)
		if (err != nil) != tc.wantErr || !equalInts(got, tc.want) {
			t.Errorf("parseSizes(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPercentile(t *testing.T) {
	var vals []time.Duration
	for i := 1; i <= 100; i++ {
		vals = append(vals, time.Duration(i))
	}
	tests := []struct {
		vals []time.Duration
		p    float64
		want time.Duration
	}{
		{vals, 0.50, 50},
		{vals, 0.99, 99},
		{vals, 1, 100},
		{vals[:1], 0.99, 1},
		{nil, 0.5, 0},
	}
	for _, tc := range tests {
		if got := percentile(tc.vals, tc.p); got != tc.want {
			t.Errorf("percentile(%d values, %v) = %v, want %v", len(tc.vals), tc.p, got, tc.want)
		}
	}
}

func TestBigText(t *testing.T) {
	a, b := bigText(1<<16), bigText(1<<16)
	if a != b {
		t.Fatal("bigText is not deterministic")
	}
	if len(a) != 1<<16 {
		t.Fatalf("len = %d", len(a))
	}
	if strings.Trim(a, textAlphabet) != "" {
		t.Fatal("bigText uses characters outside the alphabet")
	}
	for _, c := range textAlphabet {
		if !strings.ContainsRune(a, c) {
			t.Errorf("bigText never uses %q", c)
		}
	}
	if body := string(echoParams(a)); !strings.Contains(body, `"text":"`+a+`"`) {
		t.Error("echoParams escaped characters of bigText")
	}
}

func TestCheckEcho(t *testing.T) {
	ok := `{"content":[{"type":"text","text":"hi"}]}`
	tests := []struct {
		name    string
		r       reply
		wantErr string
	}{
		{"ok", reply{resp: response{Result: []byte(ok)}}, ""},
		{"transport", reply{err: errServerGone}, "closed its stdout"},
		{"rpc error", reply{resp: response{Error: &wireError{Code: -32602, Message: "bad"}}}, "-32602"},
		{"isError", reply{resp: response{Result: []byte(`{"content":[{"type":"text","text":"no"}],"isError":true}`)}}, "isError"},
		{"no content", reply{resp: response{Result: []byte(`{"content":[]}`)}}, "no content"},
		{"image", reply{resp: response{Result: []byte(`{"content":[{"type":"image","data":"x"}]}`)}}, "type"},
		{"changed", reply{resp: response{Result: []byte(`{"content":[{"type":"text","text":"ho"}]}`)}}, "byte 1"},
		{"not json", reply{resp: response{Result: []byte(`[`)}}, "decoding"},
	}
	for _, tc := range tests {
		err := checkEcho(tc.r, "hi")
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: checkEcho = %v, want error containing %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestWriteCompareRatios(t *testing.T) {
	a := &Report{Name: "a", Pipelined: &RateResult{OK: 1, CallsPerSec: 300}, Big: []*BigResult{{Bytes: 1, OK: true, MS: 4}, {Bytes: 8, OK: true, MS: 10}}}
	b := &Report{Name: "b", Pipelined: &RateResult{OK: 1, CallsPerSec: 100}, Big: []*BigResult{{Bytes: 8, OK: true, MS: 40}}}
	c := &Report{Name: "c"}
	var buf bytes.Buffer
	if err := writeCompare(&buf, []*Report{a, b, c}); err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for line := range strings.Lines(buf.String()) {
		f := strings.Split(strings.TrimSpace(line), "  ")
		var cells []string
		for _, s := range f {
			if s = strings.TrimSpace(s); s != "" {
				cells = append(cells, s)
			}
		}
		rows[cells[0]] = cells[1:]
	}
	tests := []struct {
		row  string
		want []string
	}{
		{"metric", []string{"better", "a", "b", "c", "a/b", "a/c"}},
		{"pipelined calls/s", []string{"higher", "300", "100", "-", "3.00x", "-"}},
		{"largest echo ms", []string{"lower", "10.0", "40.0", "-", "0.25x", "-"}},
	}
	for _, tc := range tests {
		if got := rows[tc.row]; strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("row %q = %q, want %q\n%s", tc.row, got, tc.want, buf.String())
		}
	}
}
