package schema

import (
	"math/big"
	"math/bits"
	"strconv"
)

// dec is an exact decimal: ±0.D × 10^point, where D is the digits of hi
// followed by those of lo, without leading or trailing zeros. Zero has no
// digits (and its sign and point do not matter).
type dec struct {
	neg    bool
	hi, lo []byte
	point  int64
}

func (d *dec) ndig() int { return len(d.hi) + len(d.lo) }

func (d *dec) digit(i int) byte {
	if i < len(d.hi) {
		return d.hi[i]
	}
	if i-len(d.hi) < len(d.lo) {
		return d.lo[i-len(d.hi)]
	}
	return '0'
}

func (d *dec) sign() int {
	switch {
	case d.ndig() == 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// isInt reports whether the value has no fractional part.
func (d *dec) isInt() bool { return d.ndig() == 0 || int64(d.ndig()) <= d.point }

// cmpDec compares a and b exactly.
func cmpDec(a, b *dec) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := cmpAbs(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

func cmpAbs(a, b *dec) int {
	if a.point != b.point {
		if a.point > b.point {
			return 1
		}
		return -1
	}
	n := max(a.ndig(), b.ndig())
	for i := range n {
		if da, db := a.digit(i), b.digit(i); da != db {
			if da > db {
				return 1
			}
			return -1
		}
	}
	return 0
}

// uint64Digits returns the significant digits of d as an integer when they
// fit.
func (d *dec) uint64Digits() (uint64, bool) {
	if d.ndig() > 19 {
		return 0, false
	}
	var u uint64
	for i := range d.ndig() {
		u = u*10 + uint64(d.digit(i)-'0')
	}
	return u, true
}

// bigDigits returns the significant digits of d as an integer.
func (d *dec) bigDigits() *big.Int {
	n, _ := new(big.Int).SetString(string(d.hi)+string(d.lo), 10)
	return n
}

// isMultiple reports whether v divided by m (m > 0) is an integer. With
// v = V × 10^ev and m = M × 10^em (V, M the significant digits), that is
// whether M divides V × 10^(ev-em), or M × 10^(em-ev) divides V. The
// exponents can be huge, so the powers of ten are taken modulo M.
func isMultiple(v, m *dec) bool {
	if v.ndig() == 0 {
		return true
	}
	ev := v.point - int64(v.ndig())
	em := m.point - int64(m.ndig())
	if ev < em {
		s := em - ev
		if int64(m.ndig())+s > int64(v.ndig()) {
			return false // M × 10^s has more digits than V, so is larger
		}
		if vd, ok := v.uint64Digits(); ok {
			md, _ := m.uint64Digits() // no more digits than V
			return vd%(md*pow10[s]) == 0
		}
		div := new(big.Int).Exp(big.NewInt(10), big.NewInt(s), nil)
		div.Mul(div, m.bigDigits())
		return new(big.Int).Rem(v.bigDigits(), div).Sign() == 0
	}
	s := ev - em
	vd, okV := v.uint64Digits()
	md, okM := m.uint64Digits()
	if okV && okM {
		return mulMod(vd%md, powMod(10, s, md), md) == 0
	}
	md2 := m.bigDigits()
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(s), md2)
	p.Mul(p, v.bigDigits())
	return p.Rem(p, md2).Sign() == 0
}

func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi%m, lo, m)
	return r
}

func powMod(base uint64, exp int64, m uint64) uint64 {
	r, b := uint64(1)%m, base%m
	for ; exp > 0; exp >>= 1 {
		if exp&1 == 1 {
			r = mulMod(r, b, m)
		}
		b = mulMod(b, b, m)
	}
	return r
}

var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// format writes d as messages write the numbers of a schema: as
// encoding/json writes a float64 (plain from 1e-6 up to 1e21, else one
// digit, a point, the others and an exponent: 3.4028234663852886e+38,
// 1e-7), but with every digit. It takes time linear in the output.
func (d *dec) format() string {
	n := d.ndig()
	if n == 0 {
		return "0"
	}
	var b []byte
	if d.neg {
		b = append(b, '-')
	}
	digits := func(from, to int) {
		for i := from; i < to; i++ {
			b = append(b, d.digit(i))
		}
	}
	switch {
	case d.point >= 22 || d.point <= -6: // 1e21 and up, below 1e-6
		digits(0, 1)
		if n > 1 {
			b = append(b, '.')
			digits(1, n)
		}
		b = append(b, 'e')
		if d.point > 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, d.point-1, 10)
	case d.point >= int64(n): // an integer
		digits(0, n)
		for range d.point - int64(n) {
			b = append(b, '0')
		}
	case d.point > 0:
		digits(0, int(d.point))
		b = append(b, '.')
		digits(int(d.point), n)
	default:
		b = append(b, '0', '.')
		for range -d.point {
			b = append(b, '0')
		}
		digits(0, n)
	}
	return string(b)
}

// formatNumber writes a number the library formatted (jsonschema.FormatRat:
// every digit, no exponent) as format writes it; text that is not a JSON
// number, such as a fraction, is kept.
func formatNumber(text string) string {
	l, end, ok := parseNumLit([]byte(text), 0)
	if !ok || end != len(text) || !l.known() {
		return text
	}
	d := l.dec()
	return d.format()
}
