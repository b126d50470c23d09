package contract

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidNameMatchesPattern checks the written-out ValidName against the
// pattern it replaces.
func TestValidNameMatchesPattern(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	names := []string{"", "a", "echo", "get_weather.v2-beta", "a b", "é", "a\n", "tool/x",
		strings.Repeat("x", 128), strings.Repeat("x", 129), "\x00", "Z9", "a*", "-", "."}
	for c := range 256 {
		names = append(names, "a"+string(rune(c)), string([]byte{byte(c)}))
	}
	for _, n := range names {
		if got, want := ValidName(n), re.MatchString(n); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", n, got, want)
		}
	}
}

func FuzzValidName(f *testing.F) {
	re := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	f.Add("echo")
	f.Fuzz(func(t *testing.T, n string) {
		if ValidName(n) != re.MatchString(n) {
			t.Fatalf("ValidName(%q) disagrees with the pattern", n)
		}
	})
}

var nameSink bool

// BenchmarkValidName compares the written-out check with the regexp it
// replaced (compiled once, outside the loop).
func BenchmarkValidName(b *testing.B) {
	re := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	b.Run("loop", func(b *testing.B) {
		for b.Loop() {
			nameSink = ValidName("get_weather.v2-beta")
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			nameSink = re.MatchString("get_weather.v2-beta")
		}
	})
}
