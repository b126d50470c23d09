package schema

import (
	stdjson "encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kaptinlin/jsonschema"
)

// TestDecFormat checks how messages write the numbers of a schema: as
// encoding/json writes a float64 but with every digit, the same on the
// fast path (from the literal) and the library path (from the library's
// formatting), and for the same value.
func TestDecFormat(t *testing.T) {
	for lit, want := range map[string]string{
		"0": "0", "-0": "0", "0.0": "0", "1": "1", "-1": "-1", "1.50": "1.5", "1e2": "100", "1E+2": "100",
		"1e-2": "0.01", "-0.001e3": "-1", "0.000001": "0.000001", "0.0000001": "1e-7", "-123.456e-10": "-1.23456e-8",
		"999999999999999999999": "999999999999999999999", "1e21": "1e+21", "12345678901234567890123": "1.2345678901234567890123e+22",
		"3.4028234663852886e38": "3.4028234663852886e+38", "5e-300": "5e-300", "-7.25e5": "-725000", "1e999999": "1e+999999",
	} {
		l, _, _ := parseNumLit([]byte(lit), 0)
		d := l.dec()
		if got := d.format(); got != want {
			t.Errorf("format(%s) = %s, want %s", lit, got, want)
		}
	}
	lits := []string{"12345678901234567890123", "0.1e1", "10e-1", "1.0e0"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		lit := fmt.Sprintf("%d", rng.Int64N(2e6)-1e6)
		if rng.IntN(2) == 0 {
			lit += fmt.Sprintf(".%0*d", rng.IntN(6)+1, rng.IntN(1000))
		}
		if rng.IntN(2) == 0 {
			lit += fmt.Sprintf("e%d", rng.IntN(60)-30)
		}
		lits = append(lits, lit)
	}
	for _, lit := range lits {
		l, _, ok := parseNumLit([]byte(lit), 0)
		if !ok {
			t.Fatalf("parseNumLit(%s) failed", lit)
		}
		d := l.dec()
		got := d.format()
		r, _ := new(big.Rat).SetString(lit)
		if lib := formatNumber(jsonschema.FormatRat(&jsonschema.Rat{Rat: r})); got != lib {
			t.Errorf("format(%s) = %s, from the library's text %s", lit, got, lib)
		}
		if back, ok := new(big.Rat).SetString(got); !ok || back.Cmp(r) != 0 {
			t.Errorf("format(%s) = %s, another value", lit, got)
		}
		// Up to 15 digits, a float64 keeps them all: encoding/json writes
		// the same text.
		if f, _ := r.Float64(); d.ndig() <= 15 {
			if enc, _ := stdjson.Marshal(f); string(enc) != got {
				t.Errorf("format(%s) = %s, encoding/json writes %s", lit, got, enc)
			}
		}
	}
}

// TestIsMultiple compares isMultiple and cmpDec with math/big.
func TestIsMultiple(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	lit := func(positive bool) string {
		digits := rng.IntN(25) + 1
		var b strings.Builder
		if !positive && rng.IntN(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(byte('1' + rng.IntN(9)))
		for range digits - 1 {
			if rng.IntN(3) == 0 {
				b.WriteByte('0')
			} else {
				b.WriteByte(byte('0' + rng.IntN(10)))
			}
		}
		return fmt.Sprintf("%se%d", b.String(), rng.IntN(50)-25)
	}
	for range 20000 {
		vs, ms := lit(false), lit(true)
		if rng.IntN(4) == 0 {
			ms = []string{"0.01", "0.5", "3", "7", "1e-7", "2.5", "1e3"}[rng.IntN(7)]
		}
		if rng.IntN(4) == 0 {
			vs = fmt.Sprintf("%de%d", rng.IntN(100), rng.IntN(10)-5)
		}
		lv, _, _ := parseNumLit([]byte(vs), 0)
		lm, _, _ := parseNumLit([]byte(ms), 0)
		v, m := lv.dec(), lm.dec()
		rv, _ := new(big.Rat).SetString(vs)
		rm, _ := new(big.Rat).SetString(ms)
		if got, want := isMultiple(&v, &m), new(big.Rat).Quo(rv, rm).IsInt(); got != want {
			t.Errorf("isMultiple(%s, %s) = %v, want %v", vs, ms, got, want)
		}
		if got, want := cmpDec(&v, &m), rv.Cmp(rm); got != want {
			t.Errorf("cmpDec(%s, %s) = %v, want %v", vs, ms, got, want)
		}
	}
}
