//go:build race

package uritemplate

// raceEnabled is set under -race, which makes regexp matching some ten
// times slower; TestMatchTime then times shorter uris.
const raceEnabled = true
