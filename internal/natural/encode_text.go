package natural

import (
	"math"
	"strconv"
)

// writeFloat writes f as encoding/json does: the shortest decimal that
// reads back as f in its bit size, with an exponent only below 1e-6 or
// from 1e21 on. NaN and the infinities have no JSON form.
func writeFloat(s *encodeState, f float64, bits int) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &encodeError{msg: strconv.FormatFloat(f, 'g', -1, bits) + " is not a JSON number (JSON numbers are finite)"}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b := strconv.AppendFloat(s.buf, f, format, -1, bits)
	if format == 'e' {
		// 1e-07 becomes 1e-7, as in encoding/json.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	s.buf = b
	return nil
}

// appendCompact appends b, valid JSON, without the white space between
// its tokens.
func appendCompact(buf, b []byte) []byte {
	start, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ' ', '\t', '\n', '\r':
			buf = append(buf, b[start:i]...)
			start = i + 1
		}
	}
	return append(buf, b[start:]...)
}
