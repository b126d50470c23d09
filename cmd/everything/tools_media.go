package main

import (
	"encoding/base64"
	binenc "encoding/binary" // "binary" is taken by the golden tests
)

// pngBase64 is a 1×1 PNG (one opaque blue pixel), made with image/png.
const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAEElEQVR42mLSqnoECAAA//8CYAGJ2CSyQAAAAABJRU5ErkJggg=="

// pixelPNG is the decoded 1×1 PNG.
var pixelPNG = mustDecode(pngBase64)

// shortWAV is a valid 2 ms WAV: 16 samples of an 8 kHz, 8-bit, mono square
// wave.
var shortWAV = makeWAV(8000, squareWave(16, 4))

func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// squareWave returns n unsigned 8-bit samples alternating between high and
// low every half samples.
func squareWave(n, half int) []byte {
	out := make([]byte, n)
	for i := range out {
		if (i/half)%2 == 0 {
			out[i] = 0xc0
		} else {
			out[i] = 0x40
		}
	}
	return out
}

// makeWAV wraps unsigned 8-bit mono PCM samples in a RIFF/WAVE container.
func makeWAV(rate uint32, samples []byte) []byte {
	le := binenc.LittleEndian
	b := make([]byte, 0, 44+len(samples))
	b = append(b, "RIFF"...)
	b = le.AppendUint32(b, uint32(36+len(samples)))
	b = append(b, "WAVEfmt "...)
	b = le.AppendUint32(b, 16)   // fmt chunk size
	b = le.AppendUint16(b, 1)    // PCM
	b = le.AppendUint16(b, 1)    // mono
	b = le.AppendUint32(b, rate) // sample rate
	b = le.AppendUint32(b, rate) // byte rate: rate × 1 channel × 1 byte
	b = le.AppendUint16(b, 1)    // block align
	b = le.AppendUint16(b, 8)    // bits per sample
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(len(samples)))
	return append(b, samples...)
}
