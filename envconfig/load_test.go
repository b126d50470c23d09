package envconfig

import (
	"errors"
	"math/big"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// env turns a map into a lookup function, so tests never read the real
// environment.
func env(vars map[string]string) Option {
	return WithLookup(func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	})
}

type scalars struct {
	S   string          `env:"S"`
	B   bool            `env:"B"`
	I   int             `env:"I"`
	I8  int8            `env:"I8"`
	I16 int16           `env:"I16"`
	I32 int32           `env:"I32"`
	I64 int64           `env:"I64"`
	U   uint            `env:"U"`
	U8  uint8           `env:"U8"`
	U16 uint16          `env:"U16"`
	U32 uint32          `env:"U32"`
	U64 uint64          `env:"U64"`
	F32 float32         `env:"F32"`
	F64 float64         `env:"F64"`
	D   time.Duration   `env:"D"`
	URL url.URL         `env:"URL"`
	PU  *url.URL        `env:"PU"`
	T   time.Time       `env:"T"`
	IP  net.IP          `env:"IP"`
	Big *big.Int        `env:"BIG"`
	PI  *int            `env:"PI"`
	SS  []string        `env:"SS"`
	SI  []int           `env:"SI"`
	SD  []time.Duration `env:"SD" sep:";"`
	SU  []*url.URL      `env:"SU" sep:" "`
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestLoadTypes(t *testing.T) {
	seven := 7
	tests := []struct {
		name string
		vars map[string]string
		want func(*scalars)
	}{
		{"string", map[string]string{"S": "  hello "}, func(c *scalars) { c.S = "  hello " }},
		{"bool true", map[string]string{"B": "true"}, func(c *scalars) { c.B = true }},
		{"bool 1", map[string]string{"B": "1"}, func(c *scalars) { c.B = true }},
		{"int", map[string]string{"I": "-42"}, func(c *scalars) { c.I = -42 }},
		{"int8 max", map[string]string{"I8": "127"}, func(c *scalars) { c.I8 = 127 }},
		{"int16 min", map[string]string{"I16": "-32768"}, func(c *scalars) { c.I16 = -32768 }},
		{"int32", map[string]string{"I32": "2147483647"}, func(c *scalars) { c.I32 = 2147483647 }},
		{"int64 trimmed", map[string]string{"I64": " 9000000000 "}, func(c *scalars) { c.I64 = 9000000000 }},
		{"uint", map[string]string{"U": "3"}, func(c *scalars) { c.U = 3 }},
		{"uint8 max", map[string]string{"U8": "255"}, func(c *scalars) { c.U8 = 255 }},
		{"uint16", map[string]string{"U16": "65535"}, func(c *scalars) { c.U16 = 65535 }},
		{"uint32", map[string]string{"U32": "4294967295"}, func(c *scalars) { c.U32 = 4294967295 }},
		{"uint64", map[string]string{"U64": "18446744073709551615"}, func(c *scalars) { c.U64 = 18446744073709551615 }},
		{"float32", map[string]string{"F32": "1.5"}, func(c *scalars) { c.F32 = 1.5 }},
		{"float64", map[string]string{"F64": "-2.5e3"}, func(c *scalars) { c.F64 = -2500 }},
		{"duration", map[string]string{"D": "1m30s"}, func(c *scalars) { c.D = 90 * time.Second }},
		{"url value", map[string]string{"URL": "https://example.com/x?y=1"}, func(c *scalars) { c.URL = *mustURL(t, "https://example.com/x?y=1") }},
		{"url pointer", map[string]string{"PU": "postgres://db:5432/app"}, func(c *scalars) { c.PU = mustURL(t, "postgres://db:5432/app") }},
		{"text unmarshaler time", map[string]string{"T": "2024-02-29T12:00:00Z"}, func(c *scalars) { c.T = time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC) }},
		{"text unmarshaler ip", map[string]string{"IP": "10.0.0.1"}, func(c *scalars) { c.IP = net.ParseIP("10.0.0.1") }},
		{"pointer to text unmarshaler", map[string]string{"BIG": "123456789012345678901234567890"}, func(c *scalars) {
			c.Big, _ = new(big.Int).SetString("123456789012345678901234567890", 10)
		}},
		{"pointer to int", map[string]string{"PI": "7"}, func(c *scalars) { c.PI = &seven }},
		{"string list trimmed, empties dropped", map[string]string{"SS": " a, b ,,c, "}, func(c *scalars) { c.SS = []string{"a", "b", "c"} }},
		{"int list", map[string]string{"SI": "1,2,3"}, func(c *scalars) { c.SI = []int{1, 2, 3} }},
		{"duration list custom sep", map[string]string{"SD": "1s; 2m"}, func(c *scalars) { c.SD = []time.Duration{time.Second, 2 * time.Minute} }},
		{"url list space sep", map[string]string{"SU": "http://a  http://b"}, func(c *scalars) {
			c.SU = []*url.URL{mustURL(t, "http://a"), mustURL(t, "http://b")}
		}},
		{"only separators gives empty list", map[string]string{"SS": " , ,"}, func(c *scalars) { c.SS = []string{} }},
		{"unset leaves zero values", map[string]string{}, func(*scalars) {}},
		{"empty counts as unset", map[string]string{"I": "", "PU": ""}, func(*scalars) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want scalars
			tt.want(&want)
			if err := Load(&got, env(tt.vars)); err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *big.Int) bool {
				return (a == nil && b == nil) || (a != nil && b != nil && a.Cmp(b) == 0)
			})); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadBadValues(t *testing.T) {
	tests := []struct {
		name, varName, value, reason string
	}{
		{"bool", "B", "yes please", `invalid bool "yes please" (use true or false)`},
		{"int", "I", "12abc", `invalid integer "12abc"`},
		{"int hex not accepted", "I", "0x10", `invalid integer "0x10"`},
		{"int8 overflow", "I8", "128", `value "128" out of range for int8`},
		{"int16 underflow", "I16", "-32769", `value "-32769" out of range for int16`},
		{"int32 overflow", "I32", "2147483648", `value "2147483648" out of range for int32`},
		{"uint negative", "U", "-1", `invalid unsigned integer "-1"`},
		{"uint8 overflow", "U8", "256", `value "256" out of range for uint8`},
		{"uint64 overflow", "U64", "18446744073709551616", `value "18446744073709551616" out of range for uint64`},
		{"float", "F64", "one", `invalid number "one"`},
		{"float32 overflow", "F32", "1e39", `value "1e39" out of range for float32`},
		{"duration", "D", "5 parsecs", `invalid duration "5 parsecs"`},
		{"duration without unit", "D", "10", `invalid duration "10"`},
		{"url relative", "URL", "/just/a/path", `invalid URL "/just/a/path": must be absolute with a scheme, like https://host/path`},
		{"url pointer no scheme", "PU", "example.com", `invalid URL "example.com": must be absolute with a scheme, like https://host/path`},
		{"url unparsable", "PU", "http://[::1", `invalid URL "http://[::1": must be absolute with a scheme, like https://host/path`},
		{"text unmarshaler", "IP", "999.1.1.1", `invalid value "999.1.1.1": invalid IP address: 999.1.1.1`},
		{"list item", "SI", "1, x ,3", `item 2: invalid integer "x"`},
		{"pointer", "PI", "seven", `invalid integer "seven"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c scalars
			err := Load(&c, env(map[string]string{tt.varName: tt.value}))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load error = %v, want *Error", err)
			}
			want := []Problem{{Var: tt.varName, Reason: tt.reason}}
			if diff := cmp.Diff(want, e.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

type nestedConfig struct {
	Name string `env:"NAME" default:"svc"`
	DB   struct {
		Host string `env:"HOST" default:"localhost"`
		Port uint16 `env:"PORT" default:"5432"`
		Pool struct {
			Size int `env:"SIZE"`
		} `envPrefix:"POOL_"`
	} `envPrefix:"DB_"`
	Embedded
	Ignored  string
	Skipped  string `env:"-"`
	internal string `env:"INTERNAL"` // unexported: must be skipped
}

// Embedded shows that an embedded struct is flattened like a nested one.
type Embedded struct {
	Region string `env:"REGION"`
}

func TestLoadNestedAndDefaults(t *testing.T) {
	var c nestedConfig
	c.Ignored = "kept"
	err := Load(&c, WithPrefix("APP_"), env(map[string]string{
		"APP_DB_PORT":      "6543",
		"APP_DB_POOL_SIZE": "8",
		"APP_REGION":       "eu",
		"APP_IGNORED":      "no",
		"APP_SKIPPED":      "no",
		"APP_INTERNAL":     "no",
		"NAME":             "prefix is required",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var want nestedConfig
	want.Name = "svc"
	want.DB.Host = "localhost"
	want.DB.Port = 6543
	want.DB.Pool.Size = 8
	want.Region = "eu"
	want.Ignored = "kept"
	if diff := cmp.Diff(want, c, cmp.AllowUnexported(nestedConfig{})); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadKeepsPrefilledValueWhenUnset(t *testing.T) {
	c := struct {
		Port int `env:"PORT"`
	}{Port: 8080}
	if err := Load(&c, env(nil)); err != nil {
		t.Fatal(err)
	}
	if c.Port != 8080 {
		t.Errorf("Port = %d, want pre-filled 8080", c.Port)
	}
}

func TestLoadRequired(t *testing.T) {
	type cfg struct {
		Port    int    `env:"PORT" required:"true"`
		Mode    string `env:"MODE" required:"true" default:"dev"`
		Token   string `env:"TOKEN" required:"true" secret:"true"`
		Comment string `env:"COMMENT"`
	}
	tests := []struct {
		name string
		vars map[string]string
		want []Problem
	}{
		{"all missing", nil, []Problem{
			{"PORT", "required but not set"},
			{"TOKEN", "required but not set"},
		}},
		{"empty is missing", map[string]string{"PORT": "", "TOKEN": "t"}, []Problem{
			{"PORT", "required but not set"},
		}},
		{"default satisfies required", map[string]string{"PORT": "1", "TOKEN": "t"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c cfg
			err := Load(&c, env(tt.vars))
			var got []Problem
			var e *Error
			if errors.As(err, &e) {
				got = e.Problems
			} else if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if tt.want == nil && c.Mode != "dev" {
				t.Errorf("Mode = %q, want default dev", c.Mode)
			}
		})
	}
}

func TestLoadCollectsAllProblems(t *testing.T) {
	type cfg struct {
		Port    int            `env:"PORT" required:"true"`
		Timeout time.Duration  `env:"TIMEOUT"`
		Debug   bool           `env:"DEBUG"`
		Name    string         `env:"NAME"`
		Bad     int            `env:"BAD" default:"many"`
		Map     map[string]int `env:"MAP"`
	}
	var c cfg
	err := Load(&c, WithPrefix("APP_"), env(map[string]string{
		"APP_TIMEOUT": "5 parsecs",
		"APP_DEBUG":   "maybe",
		"APP_NAME":    "ok",
		"APP_MAP":     "a=1",
	}))
	want := "envconfig: 5 problems:\n" +
		"- APP_PORT: required but not set\n" +
		"- APP_TIMEOUT: invalid duration \"5 parsecs\"\n" +
		"- APP_DEBUG: invalid bool \"maybe\" (use true or false)\n" +
		"- APP_BAD: invalid integer \"many\" (from the default tag)\n" +
		"- APP_MAP: unsupported field type map[string]int"
	if err == nil || err.Error() != want {
		t.Fatalf("error =\n%v\nwant\n%s", err, want)
	}
	if c.Name != "ok" {
		t.Errorf("good fields must still be filled: Name = %q", c.Name)
	}
}

func TestLoadSingleProblemWording(t *testing.T) {
	var c struct {
		Port int `env:"PORT" required:"true"`
	}
	err := Load(&c, WithPrefix("APP_"), env(nil))
	want := "envconfig: 1 problem:\n- APP_PORT: required but not set"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestLoadSecretsNeverInErrors(t *testing.T) {
	type cfg struct {
		Key     int       `env:"KEY" secret:"true"`
		Keys    []int     `env:"KEYS" secret:"true"`
		Expires time.Time `env:"EXPIRES" secret:"true"`
		DSN     *url.URL  `env:"DSN" secret:"true"`
		Dflt    uint8     `env:"DFLT" secret:"true" default:"hunter2-default"`
	}
	secrets := map[string]string{
		"KEY":     "hunter2-int",
		"KEYS":    "1,hunter2-list",
		"EXPIRES": "hunter2-time",
		"DSN":     "hunter2-dsn",
	}
	var c cfg
	err := Load(&c, env(secrets))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Load error = %v, want *Error", err)
	}
	if len(e.Problems) != 5 {
		t.Fatalf("got %d problems, want 5: %v", len(e.Problems), err)
	}
	for _, p := range e.Problems {
		if !strings.HasPrefix(p.Reason, "invalid value (redacted)") {
			t.Errorf("%s: reason %q does not say redacted", p.Var, p.Reason)
		}
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("secret value leaked into error:\n%v", err)
	}
}

func TestLoadRejectsNonStructPointer(t *testing.T) {
	var c scalars
	var nilPtr *scalars
	n := 3
	for _, dst := range []any{c, nilPtr, &n, nil} {
		err := Load(dst, env(nil))
		if err == nil || !strings.Contains(err.Error(), "pointer to a struct") {
			t.Errorf("Load(%T) error = %v, want pointer-to-struct error", dst, err)
		}
		var e *Error
		if errors.As(err, &e) {
			t.Errorf("Load(%T) returned *Error, want a plain usage error", dst)
		}
	}
}

func TestLoadUsesOSLookupByDefault(t *testing.T) {
	t.Setenv("ENVCONFIG_TEST_ONLY_VAR", "42")
	var c struct {
		N int `env:"ENVCONFIG_TEST_ONLY_VAR"`
	}
	if err := Load(&c); err != nil {
		t.Fatal(err)
	}
	if c.N != 42 {
		t.Errorf("N = %d, want 42", c.N)
	}
}
