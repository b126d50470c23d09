//go:build !race

package uritemplate

// raceEnabled is set under -race (see race_test.go).
const raceEnabled = false
