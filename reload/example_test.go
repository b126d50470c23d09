package reload_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/reload"
)

// Config is what the example's file holds: a page size.
type Config struct{ PageSize int }

func parseConfig(data []byte) (Config, error) {
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || n <= 0 {
		return Config{}, fmt.Errorf("page size must be a positive integer, got %q", data)
	}
	return Config{PageSize: n}, nil
}

func ExampleWatch() {
	dir, err := os.MkdirTemp("", "reload-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "page-size")
	if err := os.WriteFile(path, []byte("50\n"), 0o600); err != nil {
		fmt.Println(err)
		return
	}

	w, err := reload.Watch(context.Background(), path, parseConfig,
		func(c Config) { fmt.Println("reloaded: page size", c.PageSize) },
		reload.WithInterval(time.Hour), // Check drives this example
		reload.WithDebounce(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Stop()
	fmt.Println("start: page size", w.Current().PageSize)

	os.WriteFile(path, []byte("50\n"), 0o600) // same bytes: nothing happens
	w.Check()

	os.WriteFile(path, []byte("100\n"), 0o600)
	w.Check()

	os.WriteFile(path, []byte("lots\n"), 0o600) // rejected and logged
	w.Check()
	fmt.Println("now: page size", w.Current().PageSize)
	// Output:
	// start: page size 50
	// reloaded: page size 100
	// now: page size 100
}
