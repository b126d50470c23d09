package jsonx

// Number is a number the scanner accepted, as positions in the scanned
// data b: the literal is b[Start:End], its integer digits b[IntStart:IntEnd],
// its fraction digits b[IntEnd+1:FracEnd] (none when FracEnd == IntEnd:
// no point), and its exponent digits b[ExpStart:End] (none when ExpStart ==
// End). Positions, not slices, so that it is returned in registers.
type Number struct {
	Start, IntStart, IntEnd, FracEnd, ExpStart, End int
	Neg                                             bool // the number starts with a minus sign
	ExpNeg                                          bool // the exponent has a minus sign
}

// Int returns the digits before the point.
func (n Number) Int(b []byte) []byte { return b[n.IntStart:n.IntEnd] }

// Frac returns the digits after the point, nil without a point.
func (n Number) Frac(b []byte) []byte {
	if n.FracEnd == n.IntEnd {
		return nil
	}
	return b[n.IntEnd+1 : n.FracEnd]
}

// Exp returns the digits of the exponent, nil without an exponent.
func (n Number) Exp(b []byte) []byte {
	if n.ExpStart == n.End {
		return nil
	}
	return b[n.ExpStart:n.End]
}

// ScanNumber scans the number at b[i] (RFC 8259: an optional minus sign,
// no leading zero, at least one digit after a point or an exponent mark).
// It returns the number, whose End is the index after it; ok is false,
// and End the index of the offending byte, when b[i:] does not start with
// a number.
func ScanNumber(b []byte, i int) (n Number, ok bool) {
	n.Start = i
	if i < len(b) && b[i] == '-' {
		n.Neg = true
		i++
	}
	n.IntStart = i
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i+1)
	default:
		n.End = i
		return n, false
	}
	n.IntEnd, n.FracEnd = i, i
	if i < len(b) && b[i] == '.' {
		j := i + 1
		if i = digits(b, j); i == j {
			n.End = i
			return n, false
		}
		n.FracEnd = i
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			n.ExpNeg = b[i] == '-'
			i++
		}
		j := i
		if i = digits(b, j); i == j {
			n.End = i
			return n, false
		}
		n.ExpStart = j
	} else {
		n.ExpStart = i
	}
	n.End = i
	return n, true
}

// digits returns the index of the first byte at or after b[i] that is not
// a decimal digit.
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// Literal checks that b[i:] starts with lit ("true", "false" or "null")
// and returns the index after it.
func Literal(b []byte, i int, lit string) (next int, ok bool) {
	end := i + len(lit)
	if end > len(b) || string(b[i:end]) != lit {
		return i, false
	}
	return end, true
}

// IsNumber reports whether s is exactly one JSON number literal, with no
// space around it.
func IsNumber(s string) bool {
	n, ok := ScanNumber([]byte(s), 0)
	return ok && n.End == len(s)
}
