package header

import (
	"errors"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

// prop wraps a property schema in an input schema under "properties.p".
func prop(schema string) string {
	return `{"type":"object","properties":{"p":` + schema + `}}`
}

func TestCheckInputSchema(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		opts    []Option
		wantErr error  // nil: admissible
		wantPtr string // pointer of the refusal
	}{
		{name: "no annotation", schema: `{"type":"object","properties":{"a":{"type":"string"}}}`},
		{name: "boolean schema", schema: `true`},
		{name: "string", schema: prop(`{"type":"string","x-mcp-header":"Region"}`)},
		{name: "integer", schema: prop(`{"type":"integer","x-mcp-header":"Count"}`)},
		{name: "boolean", schema: prop(`{"type":"boolean","x-mcp-header":"Dry-Run"}`)},
		{name: "all tchar", schema: prop("{\"type\":\"string\",\"x-mcp-header\":\"a!#$%&'*+-.^_`|~9\"}")},
		{name: "nested properties chain", schema: `{"type":"object","properties":{"loc":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}}`},
		{name: "two distinct names", schema: `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"B"}}}`},

		{name: "empty name", schema: prop(`{"type":"string","x-mcp-header":""}`), wantErr: ErrName, wantPtr: "/properties/p"},
		{name: "space in name", schema: prop(`{"type":"string","x-mcp-header":"My Header"}`), wantErr: ErrName, wantPtr: "/properties/p"},
		{name: "CRLF in name", schema: prop(`{"type":"string","x-mcp-header":"A\r\nB"}`), wantErr: ErrName, wantPtr: "/properties/p"},
		{name: "colon in name", schema: prop(`{"type":"string","x-mcp-header":"A:B"}`), wantErr: ErrName, wantPtr: "/properties/p"},
		{name: "non-ASCII name", schema: prop(`{"type":"string","x-mcp-header":"Région"}`), wantErr: ErrName, wantPtr: "/properties/p"},
		{name: "name not a string", schema: prop(`{"type":"string","x-mcp-header":42}`), wantErr: ErrName, wantPtr: "/properties/p"},
		{name: "duplicate names differ in case", schema: `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"REGION"}}}`, wantErr: ErrDuplicate, wantPtr: "/properties/b"},
		{name: "number refused", schema: prop(`{"type":"number","x-mcp-header":"N"}`), wantErr: ErrType, wantPtr: "/properties/p"},
		{name: "object refused", schema: prop(`{"type":"object","x-mcp-header":"N"}`), wantErr: ErrType, wantPtr: "/properties/p"},
		{name: "array refused", schema: prop(`{"type":"array","x-mcp-header":"N"}`), wantErr: ErrType, wantPtr: "/properties/p"},
		{name: "type array refused", schema: prop(`{"type":["string","null"],"x-mcp-header":"N"}`), wantErr: ErrType, wantPtr: "/properties/p"},
		{name: "missing type refused", schema: prop(`{"enum":["a","b"],"x-mcp-header":"N"}`), wantErr: ErrType, wantPtr: "/properties/p"},
		{name: "type through $ref refused", schema: `{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/s","x-mcp-header":"N"}}}`, wantErr: ErrType, wantPtr: "/properties/p"},
		{name: "on root", schema: `{"type":"string","x-mcp-header":"N"}`, wantErr: ErrLocation, wantPtr: ""},
		{name: "sensitive property", schema: `{"type":"object","properties":{"api_key":{"type":"string","x-mcp-header":"Key"}}}`, wantErr: ErrSensitive, wantPtr: "/properties/api_key"},
		{name: "sensitive header", schema: prop(`{"type":"string","x-mcp-header":"X-Auth-Token"}`), wantErr: ErrSensitive, wantPtr: "/properties/p"},
		{name: "sensitive camel case", schema: `{"type":"object","properties":{"sessionId":{"type":"string","x-mcp-header":"S"}}}`, wantErr: ErrSensitive, wantPtr: "/properties/sessionId"},
		{name: "author is not auth", schema: `{"type":"object","properties":{"author":{"type":"string","x-mcp-header":"Author"}}}`},
		{name: "custom list replaces default", schema: `{"type":"object","properties":{"token":{"type":"string","x-mcp-header":"Token"}}}`, opts: []Option{WithSensitiveNames([]string{"tenant"})}},
		{name: "custom list refuses", schema: `{"type":"object","properties":{"tenant_id":{"type":"string","x-mcp-header":"T"}}}`, opts: []Option{WithSensitiveNames([]string{"tenant"})}, wantErr: ErrSensitive, wantPtr: "/properties/tenant_id"},
		{name: "empty custom list disables", schema: `{"type":"object","properties":{"password":{"type":"string","x-mcp-header":"P"}}}`, opts: []Option{WithSensitiveNames(nil)}},
		{name: "not JSON", schema: `{"type":`, wantErr: ErrSchema, wantPtr: ""},
		{name: "pointer escaping", schema: `{"type":"object","properties":{"a/b~c":{"type":"number","x-mcp-header":"X"}}}`, wantErr: ErrType, wantPtr: "/properties/a~1b~0c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckInputSchema(json.RawMessage(tt.schema), tt.opts...)
			checkRefusal(t, err, tt.wantErr, tt.wantPtr)
		})
	}
}

// TestCheckInputSchemaLocations refuses an otherwise valid annotation in
// every place that is not a chain of "properties".
func TestCheckInputSchemaLocations(t *testing.T) {
	const ok = `{"type":"string","x-mcp-header":"H"}`
	tests := []struct {
		name, schema, ptr string
	}{
		{"items", `{"type":"object","properties":{"a":{"type":"array","items":` + ok + `}}}`, "/properties/a/items"},
		{"items array (draft-07)", `{"type":"object","properties":{"a":{"type":"array","items":[` + ok + `]}}}`, "/properties/a/items/0"},
		{"prefixItems", `{"type":"object","properties":{"a":{"type":"array","prefixItems":[` + ok + `]}}}`, "/properties/a/prefixItems/0"},
		{"additionalProperties", `{"type":"object","additionalProperties":` + ok + `}`, "/additionalProperties"},
		{"patternProperties", `{"type":"object","patternProperties":{"^x":` + ok + `}}`, "/patternProperties/^x"},
		{"oneOf", `{"type":"object","oneOf":[{"properties":{"a":` + ok + `}}]}`, "/oneOf/0/properties/a"},
		{"anyOf", `{"type":"object","anyOf":[{"properties":{"a":` + ok + `}}]}`, "/anyOf/0/properties/a"},
		{"allOf", `{"type":"object","allOf":[{"properties":{"a":` + ok + `}}]}`, "/allOf/0/properties/a"},
		{"not", `{"type":"object","not":{"properties":{"a":` + ok + `}}}`, "/not/properties/a"},
		{"if", `{"type":"object","if":{"properties":{"a":` + ok + `}}}`, "/if/properties/a"},
		{"then", `{"type":"object","then":{"properties":{"a":` + ok + `}}}`, "/then/properties/a"},
		{"else", `{"type":"object","else":{"properties":{"a":` + ok + `}}}`, "/else/properties/a"},
		{"$defs via $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/h"}},"$defs":{"h":` + ok + `}}`, "/$defs/h"},
		{"definitions", `{"type":"object","definitions":{"h":` + ok + `}}`, "/definitions/h"},
		{"dependentSchemas", `{"type":"object","dependentSchemas":{"a":{"properties":{"b":` + ok + `}}}}`, "/dependentSchemas/a/properties/b"},
		{"contains", `{"type":"object","properties":{"a":{"type":"array","contains":` + ok + `}}}`, "/properties/a/contains"},
		{"properties below items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":` + ok + `}}}}}`, "/properties/a/items/properties/b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRefusal(t, CheckInputSchema(json.RawMessage(tt.schema)), ErrLocation, tt.ptr)
		})
	}
}

func TestCheckInputSchemaDataIsNotSchema(t *testing.T) {
	// x-mcp-header inside const/enum/default/examples values is data.
	schema := `{"type":"object","properties":{"a":{"type":"object","const":{"x-mcp-header":"x y"},"default":{"x-mcp-header":""},"examples":[{"x-mcp-header":1}]}}}`
	if err := CheckInputSchema(json.RawMessage(schema)); err != nil {
		t.Fatalf("CheckInputSchema: %v", err)
	}
}

func TestCheckInputSchemaReportsAll(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"B C"}}}`
	err := CheckInputSchema(json.RawMessage(schema))
	if !errors.Is(err, ErrType) || !errors.Is(err, ErrName) {
		t.Fatalf("want both ErrType and ErrName, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"/properties/a", "/properties/b", "number", "RFC 9110 token"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

func TestCheckOutputSchema(t *testing.T) {
	tests := []struct {
		name, schema, ptr string
	}{
		{"clean", `{"type":"array","items":{"type":"string"}}`, ""},
		{"on property", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}`, "/properties/a"},
		{"on root", `{"type":"string","x-mcp-header":"A"}`, ""},
		{"deep", `{"type":"array","items":{"anyOf":[{"type":"string","x-mcp-header":"A"}]}}`, "/items/anyOf/0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckOutputSchema(json.RawMessage(tt.schema))
			if tt.name == "clean" {
				if err != nil {
					t.Fatalf("CheckOutputSchema: %v", err)
				}
				return
			}
			checkRefusal(t, err, ErrOutput, tt.ptr)
		})
	}
}

func TestAnnotations(t *testing.T) {
	schema := `{"type":"object","properties":{
		"zone":{"type":"string","x-mcp-header":"Zone"},
		"loc":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}},
		"count":{"type":"integer","x-mcp-header":"Count"},
		"plain":{"type":"string"}}}`
	got, err := Annotations(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	want := []Annotation{
		{Header: "Count", Pointer: "/properties/count", Path: []string{"count"}, Type: "integer"},
		{Header: "Region", Pointer: "/properties/loc/properties/region", Path: []string{"loc", "region"}, Type: "string"},
		{Header: "Zone", Pointer: "/properties/zone", Path: []string{"zone"}, Type: "string"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Annotations (-want +got):\n%s", diff)
	}
	if got, err := Annotations(json.RawMessage(prop(`{"type":"number","x-mcp-header":"N"}`))); err == nil || got != nil {
		t.Errorf("Annotations on a refused schema = %v, %v; want nil and an error", got, err)
	}
}

func TestSensitiveMatching(t *testing.T) {
	set := newSensitiveSet(DefaultSensitiveNames())
	for name, want := range map[string]bool{
		"password": true, "Password": true, "PASSWD": true, "client_secret": true,
		"clientSecret": true, "access-token": true, "apiKey": true, "API_KEY": true,
		"api-key": true, "Authorization": true, "auth": true, "X-Auth": true,
		"cookie": true, "credentials": true, "private_key": true, "privateKey": true,
		"session_id": true, "sessionID": true,
		"author": false, "tokenizer": false, "region": false, "key": false,
		"private": false, "passage": false, "": false,
	} {
		if got := set.matches(name); got != want {
			t.Errorf("matches(%q) = %v, want %v", name, got, want)
		}
	}
}

func checkRefusal(t *testing.T, err, wantRule error, wantPtr string) {
	t.Helper()
	if wantRule == nil {
		if err != nil {
			t.Fatalf("unexpected refusal: %v", err)
		}
		return
	}
	if !errors.Is(err, wantRule) {
		t.Fatalf("error = %v, want rule %v", err, wantRule)
	}
	var he *Error
	if !errors.As(err, &he) {
		t.Fatalf("error %v is not an *Error", err)
	}
	if he.Pointer != wantPtr {
		t.Errorf("Pointer = %q, want %q", he.Pointer, wantPtr)
	}
	if !strings.Contains(err.Error(), wantRule.Error()) {
		t.Errorf("message %q does not name the rule %q", err.Error(), wantRule.Error())
	}
}
