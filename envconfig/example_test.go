package envconfig_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/envconfig"
)

func ExampleLoad() {
	type Config struct {
		Port    int           `env:"PORT" default:"8080"`
		Timeout time.Duration `env:"TIMEOUT" default:"30s"`
		Tags    []string      `env:"TAGS"`
		DB      struct {
			Host string `env:"HOST" required:"true"`
		} `envPrefix:"DB_"`
	}
	vars := map[string]string{"APP_TAGS": "a, b", "APP_DB_HOST": "db.internal"}
	lookup := func(name string) (string, bool) { v, ok := vars[name]; return v, ok }

	var cfg Config
	if err := envconfig.Load(&cfg, envconfig.WithPrefix("APP_"), envconfig.WithLookup(lookup)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Port, cfg.Timeout, cfg.Tags, cfg.DB.Host)
	// Output: 8080 30s [a b] db.internal
}

func ExampleError() {
	type Config struct {
		Port    int           `env:"PORT" required:"true"`
		Timeout time.Duration `env:"TIMEOUT"`
		APIKey  int           `env:"API_KEY" secret:"true"`
	}
	vars := map[string]string{"APP_TIMEOUT": "5 parsecs", "APP_API_KEY": "not-a-number"}
	lookup := func(name string) (string, bool) { v, ok := vars[name]; return v, ok }

	var cfg Config
	err := envconfig.Load(&cfg, envconfig.WithPrefix("APP_"), envconfig.WithLookup(lookup))
	fmt.Println(err)

	var e *envconfig.Error
	if errors.As(err, &e) {
		fmt.Println("first bad variable:", e.Problems[0].Var)
	}
	// Output:
	// envconfig: 3 problems:
	// - APP_PORT: required but not set
	// - APP_TIMEOUT: invalid duration "5 parsecs"
	// - APP_API_KEY: invalid value (redacted)
	// first bad variable: APP_PORT
}

func ExampleRedacted() {
	type Config struct {
		User     string `env:"USER"`
		Password string `env:"PASSWORD" secret:"true"`
	}
	cfg := Config{User: "admin", Password: "hunter2"}
	r := envconfig.Redacted(&cfg, envconfig.WithPrefix("DB_"))
	fmt.Println(r["DB_USER"], r["DB_PASSWORD"])
	// Output: admin ****
}
