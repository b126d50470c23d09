package header

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// MaxSafeInteger is 2^53−1, the largest integer an IEEE-754 double holds
// exactly; integer header values must lie within ±MaxSafeInteger.
const MaxSafeInteger = 1<<53 - 1

// ErrUnsafeInteger reports an integer outside ±(2^53−1) or a number that is
// not an integer.
var ErrUnsafeInteger = errors.New("integer outside the safe range ±(2^53-1)")

// CheckSafeInteger returns nil when n lies within ±(2^53−1).
func CheckSafeInteger(n int64) error {
	if n < -MaxSafeInteger || n > MaxSafeInteger {
		return fmt.Errorf("%w: %d", ErrUnsafeInteger, n)
	}
	return nil
}

// CheckSafeNumber returns nil when f is an integral value within
// ±(2^53−1), as a decoded JSON number for an "integer" argument must be.
func CheckSafeNumber(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return fmt.Errorf("%w: %v is not an integer", ErrUnsafeInteger, f)
	}
	if f < -MaxSafeInteger || f > MaxSafeInteger {
		return fmt.Errorf("%w: %v", ErrUnsafeInteger, f)
	}
	return nil
}

// EncodeInteger returns the decimal header form of n ("42", "-7"), or an
// error wrapping [ErrUnsafeInteger] when n is outside ±(2^53−1).
func EncodeInteger(n int64) (string, error) {
	if err := CheckSafeInteger(n); err != nil {
		return "", err
	}
	return strconv.FormatInt(n, 10), nil
}

// EncodeBool returns "true" or "false".
func EncodeBool(b bool) string { return strconv.FormatBool(b) }

// ParseBool reads a boolean header value: exactly "true" or "false".
func ParseBool(h string) (bool, error) {
	switch h {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%w: %q is not true or false", ErrValue, h)
}

// ParseInteger reads an integer header value (after [DecodeValue]) and
// compares numerically, as the specification asks of servers: any JSON
// number with an integral value is accepted, so "42", "42.0" and "4.2e1" all
// give 42. The value must lie within ±(2^53−1). Non-numbers wrap [ErrValue];
// fractions and out-of-range values wrap [ErrUnsafeInteger].
func ParseInteger(h string) (int64, error) {
	if !isJSONNumber(h) {
		return 0, fmt.Errorf("%w: %q is not a number", ErrValue, h)
	}
	if n, err := strconv.ParseInt(h, 10, 64); err == nil {
		return n, CheckSafeInteger(n)
	}
	if len(h) > 64 || hugeExponent(h) {
		// Keep big.Rat from expanding huge powers of ten.
		if isZero(h) {
			return 0, nil
		}
		return 0, fmt.Errorf("%w: %q", ErrUnsafeInteger, h)
	}
	r, ok := new(big.Rat).SetString(h)
	if !ok {
		return 0, fmt.Errorf("%w: %q is not a number", ErrValue, h)
	}
	if !r.IsInt() {
		return 0, fmt.Errorf("%w: %q is not an integer", ErrUnsafeInteger, h)
	}
	if !r.Num().IsInt64() {
		return 0, fmt.Errorf("%w: %s", ErrUnsafeInteger, h)
	}
	n := r.Num().Int64()
	return n, CheckSafeInteger(n)
}

// hugeExponent reports whether a JSON number's exponent exceeds ±100.
func hugeExponent(s string) bool {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return false
	}
	exp, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
	return err != nil || exp > 100 || exp < -100
}

// isZero reports whether a JSON number's digits before any exponent are
// all zero.
func isZero(s string) bool {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	return strings.Trim(s, "-0.") == ""
}

// isJSONNumber reports whether s follows the JSON number grammar.
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
