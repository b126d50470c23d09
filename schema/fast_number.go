package schema

import "github.com/mcpwire/mcpwire/internal/jsonx"

// numLit is a JSON number literal split into its parts, without decoding.
type numLit struct {
	text   []byte // the whole literal
	neg    bool
	ip, fp []byte // integer and fraction digits
	exp    int64  // exponent; valid when expOK
	expOK  bool   // the exponent fits an int64
}

// parseNumLit reads the JSON number at b[i:] (the grammar is jsonx's). It
// returns the literal and the index after it; ok is false when b[i:] does
// not start with a number.
func parseNumLit(b []byte, i int) (l numLit, end int, ok bool) {
	n, ok := jsonx.ScanNumber(b, i)
	end = n.End
	if !ok {
		return l, end, false
	}
	l = numLit{text: b[i:end], neg: n.Neg, ip: n.Int(b), fp: n.Frac(b), expOK: true}
	if n.ExpStart == end {
		return l, end, true
	}
	var u uint64
	for _, c := range b[n.ExpStart:end] {
		d := uint64(c - '0')
		if u > (1<<64-1-d)/10 {
			l.expOK = false
			return l, end, true
		}
		u = u*10 + d
	}
	// Mirror strconv.ParseInt: the magnitude may reach 1<<63 only when negative.
	switch {
	case n.ExpNeg && u <= 1<<63:
		l.exp = int64(-u) //nolint:gosec // two's complement of at most 1<<63
	case !n.ExpNeg && u < 1<<63:
		l.exp = int64(u)
	default:
		l.expOK = false
	}
	return l, end, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// zeroMantissa reports whether every digit of the literal is 0.
func (l *numLit) zeroMantissa() bool {
	for _, c := range l.ip {
		if c != '0' {
			return false
		}
	}
	for _, c := range l.fp {
		if c != '0' {
			return false
		}
	}
	return true
}

// known reports whether (*big.Rat).SetString accepts the literal, which is
// how the library reads numbers: it refuses exponents above 1e6 in
// magnitude once the fraction digits are taken into account, and such
// numbers have the type "unknown" there (no type matches them, no numeric
// keyword applies, and they equal nothing).
func (l *numLit) known() bool {
	if !l.expOK {
		return false
	}
	if l.zeroMantissa() {
		return true
	}
	e5 := l.exp - int64(len(l.fp)) // wraps around exactly as math/big does
	if e5 != 0 {
		n := e5
		if n < 0 {
			n = -n
			if n < 0 {
				return false
			}
		}
		if n > 1e6 {
			return false
		}
	}
	return true
}

// dec returns the exact value of a known literal.
func (l *numLit) dec() dec {
	d := dec{neg: l.neg, hi: l.ip, lo: l.fp}
	lead := 0
	for len(d.hi) > 0 && d.hi[0] == '0' {
		d.hi = d.hi[1:]
		lead++
	}
	if len(d.hi) == 0 {
		for len(d.lo) > 0 && d.lo[0] == '0' {
			d.lo = d.lo[1:]
			lead++
		}
	}
	for len(d.lo) > 0 && d.lo[len(d.lo)-1] == '0' {
		d.lo = d.lo[:len(d.lo)-1]
	}
	if len(d.lo) == 0 {
		for len(d.hi) > 0 && d.hi[len(d.hi)-1] == '0' {
			d.hi = d.hi[:len(d.hi)-1]
		}
	}
	d.point = int64(len(l.ip)) - int64(lead) + l.exp
	return d
}
