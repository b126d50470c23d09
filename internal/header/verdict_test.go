package header

import (
	"errors"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

// verdictRow is a Verdict with its error reduced to the rule ID.
type verdictRow struct{ Header, Pointer, ID string }

func rows(vs []Verdict) []verdictRow {
	var out []verdictRow
	for _, v := range vs {
		r := verdictRow{Header: v.Header, Pointer: v.Pointer, ID: "ok"}
		if v.Err != nil {
			r.ID = v.Err.ID()
		}
		out = append(out, r)
	}
	return out
}

// Verdicts lists every annotation, admitted ones too, with the rule that
// refuses each of the others.
func TestVerdicts(t *testing.T) {
	schema := `{"type":"object","properties":{
		"a":{"type":"string","x-mcp-header":"Region"},
		"b":{"type":"string","x-mcp-header":"REGION"},
		"c":{"type":"number","x-mcp-header":"Ratio"},
		"d":{"type":"string","x-mcp-header":"Two Words"},
		"e":{"type":"array","items":{"type":"string","x-mcp-header":"Item"}},
		"password":{"type":"string","x-mcp-header":"Pw"},
		"f":{"type":"string","x-mcp-header":7},
		"g":{"type":"boolean"}}}`
	got, err := Verdicts(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	want := []verdictRow{
		{"Region", "/properties/a", "ok"},
		{"REGION", "/properties/b", IDDuplicate},
		{"Ratio", "/properties/c", IDType},
		{"Two Words", "/properties/d", IDToken},
		{"Item", "/properties/e/items", IDPlacement},
		{"", "/properties/f", IDToken},
		{"Pw", "/properties/password", IDSensitive},
	}
	if d := cmp.Diff(want, rows(got)); d != "" {
		t.Errorf("Verdicts (-want +got):\n%s", d)
	}
	// The same refusals as Annotations, one per refused verdict.
	_, aerr := Annotations(json.RawMessage(schema))
	var refused int
	for _, v := range got {
		if v.Err != nil {
			refused++
			if !errors.Is(aerr, v.Err.Rule) {
				t.Errorf("Annotations does not report %v", v.Err)
			}
		}
	}
	if n := len(aerr.(interface{ Unwrap() []error }).Unwrap()); n != refused {
		t.Errorf("Annotations reports %d refusals, Verdicts %d", n, refused)
	}
}

func TestVerdictsNone(t *testing.T) {
	for _, s := range []string{`{"type":"object"}`, `true`, `{"type":"object","properties":{"a":{"type":"string"}}}`} {
		got, err := Verdicts(json.RawMessage(s))
		if err != nil || got != nil {
			t.Errorf("Verdicts(%s) = %v, %v; want nil, nil", s, got, err)
		}
	}
	if _, err := Verdicts(json.RawMessage(`{"type":`)); !errors.Is(err, ErrSchema) {
		t.Errorf("Verdicts of broken JSON: error %v, want ErrSchema", err)
	}
}

func TestOutputVerdicts(t *testing.T) {
	got, err := OutputVerdicts(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"array","items":{"x-mcp-header":"B"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []verdictRow{{"A", "/properties/a", IDPlacement}, {"B", "/properties/b/items", IDPlacement}}
	if d := cmp.Diff(want, rows(got)); d != "" {
		t.Errorf("OutputVerdicts (-want +got):\n%s", d)
	}
	for _, v := range got {
		if !errors.Is(v.Err, ErrOutput) {
			t.Errorf("%s: %v, want ErrOutput", v.Pointer, v.Err)
		}
	}
}

func TestErrorID(t *testing.T) {
	for rule, want := range map[error]string{
		ErrName: IDToken, ErrDuplicate: IDDuplicate, ErrType: IDType, ErrLocation: IDPlacement,
		ErrOutput: IDPlacement, ErrSensitive: IDSensitive, ErrSchema: IDSchema, errors.New("other"): "",
	} {
		if got := (&Error{Rule: rule}).ID(); got != want {
			t.Errorf("ID of %v = %q, want %q", rule, got, want)
		}
	}
}
