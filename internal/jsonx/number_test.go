package jsonx_test

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

func TestScanNumber(t *testing.T) {
	tests := []struct {
		in                 string
		end                int // -1: not a number
		neg, expNeg        bool
		intD, frac, expDig string
	}{
		{"0", 1, false, false, "0", "", ""},
		{"-0", 2, true, false, "0", "", ""},
		{"123,", 3, false, false, "123", "", ""},
		{"01", 1, false, false, "0", "", ""}, // the literal is 0; what follows is not its
		{"-12.50e+3]", 9, true, false, "12", "50", "3"},
		{"1E-07", 5, false, true, "1", "", "07"},
		{"9.0e0", 5, false, false, "9", "0", "0"},
		{"-", -1, false, false, "", "", ""},
		{"+1", -1, false, false, "", "", ""},
		{".5", -1, false, false, "", "", ""},
		{"1.", -1, false, false, "", "", ""},
		{"1.e3", -1, false, false, "", "", ""},
		{"1e", -1, false, false, "", "", ""},
		{"1e+", -1, false, false, "", "", ""},
		{"-a", -1, false, false, "", "", ""},
		{"", -1, false, false, "", "", ""},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		n, ok := jsonx.ScanNumber(b, 0)
		end := n.End
		if tt.end < 0 {
			if ok {
				t.Errorf("ScanNumber(%q) = %+v, %d: accepted", tt.in, n, end)
			}
			continue
		}
		if !ok || end != tt.end || n.Neg != tt.neg || n.ExpNeg != tt.expNeg ||
			string(n.Int(b)) != tt.intD || string(n.Frac(b)) != tt.frac || string(n.Exp(b)) != tt.expDig ||
			(n.Frac(b) == nil) != (tt.frac == "") || (n.Exp(b) == nil) != (tt.expDig == "") {
			t.Errorf("ScanNumber(%q) = %+v, %d, %v", tt.in, n, end, ok)
		}
	}
}

func TestLiteral(t *testing.T) {
	for _, tt := range []struct {
		in, lit string
		ok      bool
	}{{"true", "true", true}, {"tru", "true", false}, {"nulll", "null", true}, {"False", "false", false}} {
		if end, ok := jsonx.Literal([]byte(tt.in), 0, tt.lit); ok != tt.ok || (ok && end != len(tt.lit)) {
			t.Errorf("Literal(%q, %q) = %d, %v", tt.in, tt.lit, end, ok)
		}
	}
}

func TestIsNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1.5e3": true, "12": true, "": false, "01": false, " 1": false,
		"1 ": false, "1.": false, "-": false, "1e": false, "true": false, "1x": false,
	} {
		if got := jsonx.IsNumber(s); got != want {
			t.Errorf("IsNumber(%q) = %v, want %v", s, got, want)
		}
	}
}
