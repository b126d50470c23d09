package jsonrpc_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestErrorsMatchByCode(t *testing.T) {
	sentinels := []struct {
		err  *jsonrpc.Error
		code int64
	}{
		{jsonrpc.ErrParse, -32700},
		{jsonrpc.ErrInvalidRequest, -32600},
		{jsonrpc.ErrMethodNotFound, -32601},
		{jsonrpc.ErrInvalidParams, -32602},
		{jsonrpc.ErrInternal, -32603},
		{jsonrpc.ErrResourceNotFound, -32002},
		{jsonrpc.ErrHeaderMismatch, -32020},
		{jsonrpc.ErrMissingClientCapability, -32021},
		{jsonrpc.ErrUnsupportedVersion, -32022},
		{jsonrpc.ErrURLElicitationRequired, -32042},
	}
	for _, s := range sentinels {
		if s.err.Code != s.code {
			t.Errorf("%v has code %d, want %d", s.err, s.err.Code, s.code)
		}
		wrapped := fmt.Errorf("wrap: %w", jsonrpc.NewError(s.code, "custom %d", 1))
		for _, o := range sentinels {
			if got, want := errors.Is(wrapped, o.err), o.code == s.code; got != want {
				t.Errorf("errors.Is(wrapped %d, %v) = %v, want %v", s.code, o.err, got, want)
			}
		}
	}

	err := fmt.Errorf("wrap: %w", jsonrpc.NewError(-32602, "x"))
	if !errors.Is(err, jsonrpc.ErrInvalidParams) {
		t.Error("errors.Is(wrapped -32602, ErrInvalidParams) = false")
	}
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != -32602 || e.Message != "x" {
		t.Errorf("errors.As gave %#v", e)
	}
	if errors.Is(err, io.EOF) {
		t.Error("a wire error matches io.EOF")
	}
}

func TestDecodeErrorUnwrapsToWireError(t *testing.T) {
	_, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":3}`))
	if !errors.Is(err, jsonrpc.ErrInvalidRequest) {
		t.Fatalf("errors.Is(%v, ErrInvalidRequest) = false", err)
	}
	_, err = jsonrpc.Decode([]byte(`{`))
	if !errors.Is(err, jsonrpc.ErrParse) {
		t.Fatalf("errors.Is(%v, ErrParse) = false", err)
	}
}

func TestWireError(t *testing.T) {
	tests := []struct {
		name     string
		in       error
		wantCode int64
		wantMsg  string
	}{
		{"plain go error", errors.New("disk full"), jsonrpc.CodeInternalError, "internal error: disk full"},
		{"nil", nil, jsonrpc.CodeInternalError, "internal error"},
		{"wire error kept", jsonrpc.NewError(-32602, "bad x"), -32602, "bad x"},
		{"wrapped wire error found", fmt.Errorf("ctx: %w", jsonrpc.NewError(-32601, "nope")), -32601, "nope"},
		{"code 0 becomes internal", &jsonrpc.Error{Message: "zero"}, jsonrpc.CodeInternalError, "zero"},
		{"wrapped code 0 becomes internal", fmt.Errorf("w: %w", &jsonrpc.Error{Message: "z"}), jsonrpc.CodeInternalError, "z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := jsonrpc.WireError(tt.in)
			if got.Code != tt.wantCode || got.Message != tt.wantMsg {
				t.Errorf("WireError = {%d %q}, want {%d %q}", got.Code, got.Message, tt.wantCode, tt.wantMsg)
			}
			if got.Code == 0 {
				t.Error("WireError gave code 0")
			}
		})
	}
	zero := &jsonrpc.Error{Message: "zero"}
	jsonrpc.WireError(zero)
	if zero.Code != 0 {
		t.Error("WireError modified its argument")
	}
	resp := jsonrpc.NewErrorResponse(jsonrpc.Int64ID(5), errors.New("boom"))
	want := `{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"internal error: boom"}}`
	if got := mustMarshal(t, resp); got != want {
		t.Errorf("NewErrorResponse marshals to %s, want %s", got, want)
	}
}

func TestErrorWithData(t *testing.T) {
	base := jsonrpc.NewError(-32602, "bad %s", "arg")
	e := base.WithData(map[string]int{"n": 1})
	if string(e.Data) != `{"n":1}` {
		t.Errorf("Data = %s", e.Data)
	}
	if base.Data != nil {
		t.Error("WithData modified the receiver")
	}
	if e2 := base.WithData(make(chan int)); e2.Data != nil {
		t.Errorf("unmarshallable data gave %s", e2.Data)
	}
	got := mustMarshal(t, &jsonrpc.Response{ID: jsonrpc.StringID("r"), Error: e})
	want := `{"jsonrpc":"2.0","id":"r","error":{"code":-32602,"message":"bad arg","data":{"n":1}}}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if s := e.Error(); s != "jsonrpc error -32602: bad arg" {
		t.Errorf("Error() = %q", s)
	}
}
