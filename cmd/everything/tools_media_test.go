package main

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"testing"
)

func TestPixelPNG(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(pixelPNG))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1 || b.Dy() != 1 {
		t.Errorf("PNG is %dx%d, want 1x1", b.Dx(), b.Dy())
	}
	if base64.StdEncoding.EncodeToString(pixelPNG) != pngBase64 {
		t.Error("pngBase64 does not round-trip")
	}
}

// TestShortWAV checks the RIFF/WAVE structure field by field.
func TestShortWAV(t *testing.T) {
	w := shortWAV
	le32 := func(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24 }
	le16 := func(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }
	checks := []struct {
		name      string
		got, want any
	}{
		{"RIFF tag", string(w[0:4]), "RIFF"},
		{"RIFF size", le32(w[4:8]), uint32(len(w) - 8)},
		{"WAVE tag", string(w[8:12]), "WAVE"},
		{"fmt tag", string(w[12:16]), "fmt "},
		{"fmt size", le32(w[16:20]), uint32(16)},
		{"PCM", le16(w[20:22]), uint16(1)},
		{"channels", le16(w[22:24]), uint16(1)},
		{"sample rate", le32(w[24:28]), uint32(8000)},
		{"byte rate", le32(w[28:32]), uint32(8000)},
		{"block align", le16(w[32:34]), uint16(1)},
		{"bits", le16(w[34:36]), uint16(8)},
		{"data tag", string(w[36:40]), "data"},
		{"data size", le32(w[40:44]), uint32(len(w) - 44)},
		{"samples", len(w) - 44, 16},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
