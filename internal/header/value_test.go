package header

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEncodeValue(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"us-west1", "us-west1"},
		{"Hello, world", "Hello, world"},
		{"a b", "a b"},
		{"!~", "!~"},
		{"", ""},
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{" padded ", "=?base64?IHBhZGRlZCA=?="},
		{" lead", "=?base64?IGxlYWQ=?="},
		{"trail ", "=?base64?dHJhaWwg?="},
		{"a\tb", "=?base64?YQli?="},
		{"\x7f", "=?base64?fw==?="},
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"=?base64??=", "=?base64?PT9iYXNlNjQ/Pz0=?="},
		{"=?BASE64?x?=", "=?BASE64?x?="}, // sentinel is case-sensitive
		{"=?base64?x", "=?base64?x"},     // no closing marker
	}
	for _, tt := range tests {
		got := EncodeValue(tt.in)
		if got != tt.want {
			t.Errorf("EncodeValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := DecodeValue(got)
		if err != nil || back != tt.in {
			t.Errorf("DecodeValue(%q) = %q, %v; want %q", got, back, err, tt.in)
		}
	}
}

func TestDecodeValue(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "plain", want: "plain"},
		{in: "a\tb", want: "a\tb"}, // HTAB accepted plain on input
		{in: "", want: ""},
		{in: "=?base64??=", want: ""},
		{in: "=?base64?SGVsbG8sIOS4lueVjA==?=", want: "Hello, 世界"},
		{in: "=?base64?SGVsbG8sIOS4lueVjA?=", bad: true}, // missing padding
		{in: "=?base64?!!!!?=", bad: true},
		{in: "=?base64?/w==?=", bad: true}, // 0xff is not UTF-8
		{in: "a\nb", bad: true},
		{in: "a\x00b", bad: true},
		{in: "caf\xc3\xa9", bad: true},
		{in: " lead", bad: true},
		{in: "trail\t", bad: true},
	}
	for _, tt := range tests {
		got, err := DecodeValue(tt.in)
		if tt.bad {
			if !errors.Is(err, ErrValue) {
				t.Errorf("DecodeValue(%q) = %q, %v; want ErrValue", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("DecodeValue(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestIntegers(t *testing.T) {
	tests := []struct {
		n    int64
		want string
		bad  bool
	}{
		{n: 42, want: "42"},
		{n: -7, want: "-7"},
		{n: 0, want: "0"},
		{n: MaxSafeInteger, want: "9007199254740991"},
		{n: -MaxSafeInteger, want: "-9007199254740991"},
		{n: MaxSafeInteger + 1, bad: true},
		{n: -MaxSafeInteger - 1, bad: true},
	}
	for _, tt := range tests {
		got, err := EncodeInteger(tt.n)
		if tt.bad {
			if !errors.Is(err, ErrUnsafeInteger) || !errors.Is(CheckSafeInteger(tt.n), ErrUnsafeInteger) {
				t.Errorf("EncodeInteger(%d) = %q, %v; want ErrUnsafeInteger", tt.n, got, err)
			}
			if err := CheckSafeNumber(float64(tt.n)); !errors.Is(err, ErrUnsafeInteger) {
				t.Errorf("CheckSafeNumber(%d) = %v; want ErrUnsafeInteger", tt.n, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("EncodeInteger(%d) = %q, %v; want %q", tt.n, got, err, tt.want)
		}
		if err := CheckSafeNumber(float64(tt.n)); err != nil {
			t.Errorf("CheckSafeNumber(%d) = %v", tt.n, err)
		}
		if back, err := ParseInteger(got); err != nil || back != tt.n {
			t.Errorf("ParseInteger(%q) = %d, %v; want %d", got, back, err, tt.n)
		}
	}
	if err := CheckSafeNumber(1.5); err == nil {
		t.Error("CheckSafeNumber(1.5) = nil, want an error")
	}
}

func TestParseInteger(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  error
	}{
		{in: "42", want: 42},
		{in: "42.0", want: 42},
		{in: "4.2e1", want: 42},
		{in: "-7", want: -7},
		{in: "0e-999999", want: 0},
		{in: "9007199254740991", want: MaxSafeInteger},
		{in: "9007199254740991.0", want: MaxSafeInteger},
		{in: "-9007199254740991", want: -MaxSafeInteger},
		{in: "9007199254740992", err: ErrUnsafeInteger},
		{in: "-9007199254740992", err: ErrUnsafeInteger},
		{in: "9007199254740990.5", err: ErrUnsafeInteger},
		{in: "1e999999999", err: ErrUnsafeInteger},
		{in: "99999999999999999999", err: ErrUnsafeInteger},
		{in: "42.5", err: ErrUnsafeInteger},
		{in: "", err: ErrValue},
		{in: "+1", err: ErrValue},
		{in: "0x10", err: ErrValue},
		{in: "042", err: ErrValue},
		{in: " 42", err: ErrValue},
		{in: "NaN", err: ErrValue},
		{in: "1.", err: ErrValue},
	}
	for _, tt := range tests {
		got, err := ParseInteger(tt.in)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("ParseInteger(%q) = %d, %v; want %v", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseInteger(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestBools(t *testing.T) {
	if EncodeBool(true) != "true" || EncodeBool(false) != "false" {
		t.Fatal("EncodeBool is wrong")
	}
	for in, want := range map[string]bool{"true": true, "false": false} {
		if got, err := ParseBool(in); err != nil || got != want {
			t.Errorf("ParseBool(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"True", "1", "", "yes"} {
		if _, err := ParseBool(in); !errors.Is(err, ErrValue) {
			t.Errorf("ParseBool(%q) error = %v, want ErrValue", in, err)
		}
	}
}

func FuzzValueRoundTrip(f *testing.F) {
	for _, s := range []string{"", "us-west1", "Hello, 世界", " padded ", "line1\nline2", "=?base64?literal?=", "a\tb", "=?base64??="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip()
		}
		enc := EncodeValue(s)
		for i := 0; i < len(enc); i++ {
			if c := enc[i]; c < 0x20 || c > 0x7e {
				t.Fatalf("EncodeValue(%q) = %q holds byte 0x%02x", s, enc, c)
			}
		}
		if strings.TrimSpace(enc) != enc {
			t.Fatalf("EncodeValue(%q) = %q has outer whitespace", s, enc)
		}
		dec, err := DecodeValue(enc)
		if err != nil || dec != s {
			t.Fatalf("DecodeValue(EncodeValue(%q)) = %q, %v", s, dec, err)
		}
	})
}
