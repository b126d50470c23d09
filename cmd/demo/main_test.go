package main

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// TestParseFlags checks -all, -h and a stray argument.
func TestParseFlags(t *testing.T) {
	var stderr bytes.Buffer
	if opts, err := parseFlags(nil, &stderr); err != nil || opts.all {
		t.Errorf("no flags: got %+v, %v; want the default set", opts, err)
	}
	if opts, err := parseFlags([]string{"-all"}, &stderr); err != nil || !opts.all {
		t.Errorf("-all: got %+v, %v; want every step", opts, err)
	}
	if stderr.Len() != 0 {
		t.Errorf("valid flags printed %q", stderr.String())
	}
	_, err := parseFlags([]string{"-h"}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: got %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"usage: go run ./cmd/demo [-all]", "-all", "elicitation", "Streamable HTTP"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the -h usage lacks %q:\n%s", want, stderr.String())
		}
	}
	stderr.Reset()
	if _, err := parseFlags([]string{"extra"}, &stderr); err == nil || !strings.Contains(stderr.String(), `unexpected argument "extra"`) {
		t.Errorf("a stray argument: got %v, %q", err, stderr.String())
	}
}
