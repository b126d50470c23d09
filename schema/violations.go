package schema

import (
	"slices"
	"strconv"
	"strings"
)

// MaxViolations is the number of violations [Schema.Validate] returns and
// [FormatViolations] lists at most. An instance can break a rule millions
// of times (a million unknown keys); past the first MaxViolations, the
// validators only count, and the list ends with one [MoreKeyword] entry
// saying how many more there are.
const MaxViolations = 20

// MoreKeyword is the Keyword of the entry that ends a capped list of
// violations. Its Pointer is empty and its Message reads "… and N more",
// N being the exact number of violations left out.
const MoreKeyword = "more"

// moreViolation is the entry that stands for n violations left out.
func moreViolation(n int) Violation {
	return Violation{Keyword: MoreKeyword, Message: moreText(n)}
}

func moreText(n int) string { return "… and " + strconv.Itoa(n) + " more" }

// moreCount returns the number of violations an entry made by
// moreViolation stands for.
func moreCount(v Violation) (int, bool) {
	if v.Keyword != MoreKeyword || v.Pointer != "" {
		return 0, false
	}
	s, ok := strings.CutPrefix(v.Message, "… and ")
	if !ok {
		return 0, false
	}
	if s, ok = strings.CutSuffix(s, " more"); !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// compareViolations orders violations by pointer, then keyword, then
// message: the order of [Schema.Validate].
func compareViolations(a, b *Violation) int {
	if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
		return c
	}
	if c := strings.Compare(a.Keyword, b.Keyword); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

// found is a violation the library path collected, and whether a
// reference token of its pointer was clipped: two violations whose
// pointers were clipped may look alike without being the same, so they
// are not taken for repeats.
type found struct {
	v       Violation
	clipped bool
}

// sortFound sorts violations in place and drops repeats (see found).
func sortFound(fs []found) []found {
	slices.SortFunc(fs, func(a, b found) int { return compareViolations(&a.v, &b.v) })
	return slices.CompactFunc(fs, func(a, b found) bool { return !a.clipped && !b.clipped && a.v == b.v })
}

// capFound sorts violations, drops repeats and caps the list at
// MaxViolations, followed by a MoreKeyword entry when some are left out.
func capFound(fs []found) []Violation {
	fs = sortFound(fs)
	n := min(len(fs), MaxViolations)
	vs := make([]Violation, n, n+1)
	for i := range vs {
		vs[i] = fs[i].v
	}
	if len(fs) > n {
		vs = append(vs, moreViolation(len(fs)-n))
	}
	return vs
}

// FormatViolations renders violations as text a model can act on: a first
// line, heading followed by a colon (such as "invalid arguments for tool
// add:"), then one line per violation,
// "- <pointer>: <message> (<keyword>)", with "(root)" for the empty
// pointer. It lists at most [MaxViolations]; the rest, and those a
// [MoreKeyword] entry stands for, are summed up in a last line
// "- … and N more". It returns "" for no violations.
func FormatViolations(heading string, vs []Violation) string {
	if len(vs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(heading)
	b.WriteByte(':')
	listed, more := 0, 0
	for _, v := range vs {
		if n, ok := moreCount(v); ok {
			more += n
			continue
		}
		if listed == MaxViolations {
			more++
			continue
		}
		listed++
		p := v.Pointer
		if p == "" {
			p = "(root)"
		}
		b.WriteString("\n- ")
		b.WriteString(p)
		b.WriteString(": ")
		b.WriteString(v.Message)
		b.WriteString(" (")
		b.WriteString(v.Keyword)
		b.WriteString(")")
	}
	if more > 0 {
		b.WriteString("\n- ")
		b.WriteString(moreText(more))
	}
	return b.String()
}
