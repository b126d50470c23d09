package envconfig

import (
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type redactConfig struct {
	Port     int           `env:"PORT"`
	Timeout  time.Duration `env:"TIMEOUT"`
	Hosts    []string      `env:"HOSTS" sep:";"`
	Upstream *url.URL      `env:"UPSTREAM"`
	Nil      *url.URL      `env:"NIL"`
	Since    time.Time     `env:"SINCE"`
	Token    string        `env:"TOKEN" secret:"true"`
	Missing  string        `env:"MISSING" secret:"true"`
	DB       struct {
		Password string `env:"PASSWORD" secret:"true"`
	} `envPrefix:"DB_"`
}

func TestRedacted(t *testing.T) {
	var c redactConfig
	err := Load(&c, WithPrefix("APP_"), env(map[string]string{
		"APP_PORT":        "8080",
		"APP_TIMEOUT":     "1500ms",
		"APP_HOSTS":       "a;b",
		"APP_UPSTREAM":    "https://user:pa55word@example.com/x",
		"APP_SINCE":       "2024-01-02T03:04:05Z",
		"APP_TOKEN":       "s3cret-token",
		"APP_DB_PASSWORD": "s3cret-db",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"APP_PORT":        "8080",
		"APP_TIMEOUT":     "1.5s",
		"APP_HOSTS":       "a;b",
		"APP_UPSTREAM":    "https://user:xxxxx@example.com/x",
		"APP_NIL":         "",
		"APP_SINCE":       "2024-01-02T03:04:05Z",
		"APP_TOKEN":       Mask,
		"APP_MISSING":     "",
		"APP_DB_PASSWORD": Mask,
	}
	for _, src := range []any{&c, c} {
		got := Redacted(src, WithPrefix("APP_"))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Redacted(%T) (-want +got):\n%s", src, diff)
		}
	}
}

func TestRedactedRejectsNonStruct(t *testing.T) {
	var nilPtr *redactConfig
	for _, src := range []any{nil, 3, nilPtr} {
		if got := Redacted(src); got != nil {
			t.Errorf("Redacted(%T) = %v, want nil", src, got)
		}
	}
}
