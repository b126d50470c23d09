package schema

// numLit is a JSON number literal split into its parts, without decoding.
type numLit struct {
	text   []byte // the whole literal
	neg    bool
	ip, fp []byte // integer and fraction digits
	exp    int64  // exponent; valid when expOK
	expOK  bool   // the exponent fits an int64
}

// parseNumLit reads the JSON number at b[i:]. It returns the literal and
// the index after it; ok is false when b[i:] does not start with a number.
func parseNumLit(b []byte, i int) (l numLit, end int, ok bool) {
	start := i
	if i < len(b) && b[i] == '-' {
		l.neg = true
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		l.ip = b[i : i+1]
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		j := i
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		l.ip = b[j:i]
	default:
		return l, i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		if i == j {
			return l, i, false
		}
		l.fp = b[j:i]
	}
	l.expOK = true
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		neg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			neg = b[i] == '-'
			i++
		}
		j := i
		var u uint64
		for i < len(b) && isDigit(b[i]) {
			d := uint64(b[i] - '0')
			if u > (1<<64-1-d)/10 {
				l.expOK = false
			} else {
				u = u*10 + d
			}
			i++
		}
		if i == j {
			return l, i, false
		}
		// Mirror strconv.ParseInt: the magnitude may reach 1<<63 only when negative.
		switch {
		case !l.expOK:
		case neg && u <= 1<<63:
			l.exp = int64(-u) //nolint:gosec // two's complement of at most 1<<63
		case !neg && u < 1<<63:
			l.exp = int64(u)
		default:
			l.expOK = false
		}
	}
	l.text = b[start:i]
	return l, i, true
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
