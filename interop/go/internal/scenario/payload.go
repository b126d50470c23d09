package scenario

import "strings"

// bigAlphabet mixes plain ASCII, characters JSON must escape, characters some
// encoders escape by choice, and 2-, 3- and 4-byte UTF-8.
var bigAlphabet = []string{
	"a", "b", "c", "x", "y", "z", "A", "Q", "Z", "0", "5", "9", " ", " ", " ",
	`"`, `\`, "/", "\n", "\t", "<", ">", "&", "é", "ß", "✓", "€", "😀",
}

// BigText returns a deterministic string of exactly n bytes of valid UTF-8
// drawn from bigAlphabet.
func BigText(n int) string {
	var b strings.Builder
	b.Grow(n)
	x := uint32(2463534242)
	for b.Len() < n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		s := bigAlphabet[x%uint32(len(bigAlphabet))]
		if b.Len()+len(s) > n {
			s = strings.Repeat("x", n-b.Len())
		}
		b.WriteString(s)
	}
	return b.String()
}
