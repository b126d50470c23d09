package validate

import (
	"strings"
	"testing"
)

// checkCase is one input for a string validator: errPart "" means valid.
type checkCase struct {
	in      string
	errPart string
}

func runChecks(t *testing.T, name string, check func(string) error, cases []checkCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.in, func(t *testing.T) {
			err := check(tt.in)
			if tt.errPart == "" {
				if err != nil {
					t.Fatalf("%s(%q) = %v; want valid", name, tt.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Fatalf("%s(%q) = %v; want error containing %q", name, tt.in, err, tt.errPart)
			}
		})
	}
}

func TestIdentifier(t *testing.T) {
	runChecks(t, "Identifier", Identifier, []checkCase{
		{"x", ""}, {"_", ""}, {"_private", ""}, {"camelCase9", ""}, {"SNAKE_CASE_2", ""},
		{"", "empty"},
		{"9lives", "starts with a digit"},
		{"kebab-case", `contains '-'`},
		{"has space", `contains ' '`},
		{"naïve", `contains 'ï'`},
		{"名前", `contains '名'`},
		{"a.b", `contains '.'`},
		{"x\n", `contains '\n'`},
	})
}

func TestSemVer(t *testing.T) {
	runChecks(t, "SemVer", SemVer, []checkCase{
		{"0.0.0", ""}, {"1.2.3", ""}, {"10.20.30", ""},
		{"1.2.3-rc.1+build.5", ""},
		{"1.0.0-alpha", ""}, {"1.0.0-alpha.beta", ""}, {"1.0.0-0.3.7", ""},
		{"1.0.0-x.7.z.92", ""}, {"1.0.0-x-y-z.--", ""}, {"1.0.0-0A.is.legal", ""},
		{"1.0.0+001", ""}, {"1.0.0+20130313144700", ""}, {"1.0.0-beta+exp.sha.5114f85", ""},
		{"1.0.0+21AF26D3----117B344092BD", ""},
		{"", "empty"},
		{"v1.2.3", `must not start with "v"; send "1.2.3"`},
		{"V1.2.3", `must not start with "V"`},
		{"vNext", "three numbers"},
		{"01.2.3", `major "01" has a leading zero`},
		{"1.02.3", `minor "02" has a leading zero`},
		{"1.2.03", `patch "03" has a leading zero`},
		{"1.2", "three numbers"},
		{"1.2.3.4", "three numbers"},
		{"1.2.x", `patch "x" is not a number`},
		{"1..3", `minor "" is not a number`},
		{"-1.2.3", "three numbers"},
		{"1.2.3-", `pre-release "" has an empty identifier`},
		{"1.2.3-rc..1", `pre-release "rc..1" has an empty identifier`},
		{"1.2.3-01", `pre-release identifier "01" has a leading zero`},
		{"1.2.3-rc_1", `pre-release identifier "rc_1" may contain only`},
		{"1.2.3+", `build metadata "" has an empty identifier`},
		{"1.2.3+build+again", `build metadata identifier "build+again"`},
		{"1.2.3-ünï", "may contain only"},
		{" 1.2.3", "not a number"},
	})
}

func TestRFC3339DateTime(t *testing.T) {
	runChecks(t, "RFC3339DateTime", RFC3339DateTime, []checkCase{
		{"2024-05-01T13:45:00Z", ""},
		{"2024-05-01t13:45:00z", ""},
		{"2024-05-01T13:45:00.123456789+02:00", ""},
		{"2024-05-01T13:45:00-07:30", ""},
		{"2024-02-29T00:00:00Z", ""},
		{"1998-12-31T23:59:60Z", ""},
		{"1998-12-31T15:59:60-08:00", ""},
		{"1998-12-31T23:59:60+00:00", ""},
		{"", "empty"},
		{"2024-05-01", "not RFC 3339"},
		{"2024-05-01 13:45:00Z", "not RFC 3339"},
		{"2024-05-01T13:45:00", "no offset"},
		{"2024-05-01T13:45Z", "time part is not HH:MM:SS"},
		{"2024-13-01T00:00:00Z", "month 13 does not exist"},
		{"2024-00-10T00:00:00Z", "month 00 does not exist"},
		{"2023-02-29T00:00:00Z", "February 2023 has days 01 to 28"},
		{"2024-04-31T00:00:00Z", "April 2024 has days 01 to 30"},
		{"2024-05-01T24:00:00Z", "hour 24"},
		{"2024-05-01T23:60:00Z", "minute 60"},
		{"2024-05-01T23:59:61Z", "second 61"},
		{"1998-12-31T22:59:60Z", "leap second"},
		{"1998-12-31T23:59:60+01:00", "leap second"},
		{"2024-05-01T13:45:00.Z", "at least one digit"},
		{"2024-05-01T13:45:00+2:00", "offset"},
		{"2024-05-01T13:45:00+24:00", "out of range"},
		{"2024-05-01T13:45:00+0200", "offset"},
		{"２０２４-05-01T13:45:00Z", "not RFC 3339"},
	})
}

func TestDate(t *testing.T) {
	runChecks(t, "Date", Date, []checkCase{
		{"2024-05-01", ""}, {"2000-02-29", ""}, {"0001-01-01", ""}, {"9999-12-31", ""},
		{"", "empty"},
		{"1900-02-29", "February 1900 has days 01 to 28"},
		{"2024-02-30", "February 2024 has days 01 to 29"},
		{"2024-13-01", "month 13"},
		{"2024-06-00", "day 00"},
		{"2024-5-1", "not YYYY-MM-DD"},
		{"20240501", "not YYYY-MM-DD"},
		{"2024/05/01", "not YYYY-MM-DD"},
		{"2024-05-01T00:00:00Z", "not YYYY-MM-DD"},
		{"2024-0a-01", "not YYYY-MM-DD"},
	})
}

func TestTime(t *testing.T) {
	runChecks(t, "Time", Time, []checkCase{
		{"13:45:00Z", ""}, {"00:00:00z", ""}, {"23:59:59.999+14:00", ""},
		{"23:59:60Z", ""}, {"01:29:60+01:30", ""}, {"15:59:60-08:00", ""},
		{"", "empty"},
		{"13:45:00", "no offset"},
		{"13:45Z", "not HH:MM:SS"},
		{"1:45:00Z", "not HH:MM:SS"},
		{"24:00:00Z", "hour 24"},
		{"12:61:00Z", "minute 61"},
		{"22:59:60Z", "leap second"},
		{"23:59:60+01:00", "leap second"},
		{"13:45:00 Z", "offset"},
		{"13:45:00+01", "offset"},
	})
}

func TestRegexp(t *testing.T) {
	runChecks(t, "Regexp", Regexp, []checkCase{
		{`^[a-z]+$`, ""}, {`(?i)hello\s+world`, ""}, {`\p{Greek}+`, ""}, {`a{2,3}`, ""},
		{"", "empty"},
		{`[a-z`, "missing closing ]"},
		{`(abc`, "missing closing )"},
		{`foo(?=bar)`, "no look-around"},
		{`(a)\1`, "invalid escape"},
		{`*a`, "missing argument to repetition"},
	})
}

func TestGlob(t *testing.T) {
	runChecks(t, "Glob", Glob, []checkCase{
		{"*.go", ""}, {"docs/*.md", ""}, {"file?.txt", ""}, {"[a-c]*", ""}, {"[^x]", ""},
		{`\*literal`, ""}, {"**/*.go", ""}, {"plain", ""},
		{"", "empty"},
		{"[", "malformed"},
		{"a[b", "malformed"},
		{`trailing\`, "malformed"},
		{"ok*/[", "malformed"},
	})
}

func TestJSON(t *testing.T) {
	runChecks(t, "JSON", JSON, []checkCase{
		{"{}", ""}, {"[]", ""}, {`"string"`, ""}, {"0", ""}, {"-1.5e10", ""}, {"null", ""},
		{` {"a": [1, true, null, "ü"]} `, ""}, {`"\ud83d\ude00"`, ""},
		{"", "empty"}, {"   ", "empty"},
		{"{} x", "not valid JSON"},
		{"[1] [2]", "not valid JSON"},
		{"[1,2,]", "not valid JSON"},
		{`{"a":1,}`, "not valid JSON"},
		{"{'a':1}", "not valid JSON"},
		{"01", "not valid JSON"},
		{"NaN", "not valid JSON"},
		{"\"tab\there\"", "not valid JSON"},
		{"\"\xff\"", "not valid UTF-8"},
	})
}
