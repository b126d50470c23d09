package dpop

import (
	"context"
	"testing"
	"time"
)

// FuzzParseProof feeds parse and Check arbitrary proofs: they must never
// panic, and whatever parse accepts has a thumbprint.
func FuzzParseProof(f *testing.F) {
	k, err := GenerateKey()
	if err != nil {
		f.Fatal(err)
	}
	p, _ := k.Proof("POST", "https://mcp.example.com/mcp", "tok", "n")
	f.Add(p)
	f.Add("")
	f.Add("..")
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Add(p[:len(p)-3])
	c, err := NewChecker(Options{Window: 1000 * time.Hour})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, proof string) {
		if got, err := parse(proof); err == nil && got.thumbprint == "" {
			t.Fatal("a parsed proof without a thumbprint")
		}
		c.Check(context.Background(), proof, "POST", "https://mcp.example.com/mcp", "tok", "")
	})
}
