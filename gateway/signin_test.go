package gateway

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A private key file is read in each PEM form a key tool writes; anything
// else is refused naming the file.
func TestReadPrivateKey(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(ec)
	sec1, _ := x509.MarshalECPrivateKey(ec)
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, f := range []string{
		write("pkcs8.pem", "PRIVATE KEY", pkcs8),
		write("sec1.pem", "EC PRIVATE KEY", sec1),
		write("pkcs1.pem", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey)),
	} {
		if _, err := readPrivateKey(f); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
	garbage := filepath.Join(dir, "garbage.pem")
	os.WriteFile(garbage, []byte("not a key"), 0o600)
	for f, say := range map[string]string{
		garbage: "no PEM block",
		write("bad.pem", "PRIVATE KEY", []byte{1}): "bad.pem",
		filepath.Join(dir, "absent.pem"):           "absent.pem",
	} {
		if _, err := readPrivateKey(f); err == nil || !strings.Contains(err.Error(), say) {
			t.Errorf("%s: %v, want an error saying %q", filepath.Base(f), err, say)
		}
	}
}
