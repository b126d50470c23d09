package schema

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kaptinlin/jsonschema"
)

// TestDecFormat compares the fast path's number formatting with the
// library's.
func TestDecFormat(t *testing.T) {
	lits := []string{"0", "-0", "0.0", "1", "-1", "1.50", "100", "1e2", "1E+2", "1e-2", "-0.001e3", "123.456e-10",
		"12345678901234567890123", "0.1e1", "10e-1", "5e-300", "-7.25e5", "1.0e0"}
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
		r, _ := new(big.Rat).SetString(lit)
		if got, want := d.format(), jsonschema.FormatRat(&jsonschema.Rat{Rat: r}); got != want {
			t.Errorf("format(%s) = %s, want %s", lit, got, want)
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
