package mcpwire_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire"
)

// The modules released beside the main module, each tagged
// "<dir>/vX.Y.Z" together with it, and the mcpwire modules each requires.
var releasedModules = map[string][]string{
	"jwtauth":        {"github.com/mcpwire/mcpwire"},
	"otelmcp":        {"github.com/mcpwire/mcpwire"},
	"redisbroker":    {"github.com/mcpwire/mcpwire"},
	"cmd/everything": {"github.com/mcpwire/mcpwire", "github.com/mcpwire/mcpwire/jwtauth", "github.com/mcpwire/mcpwire/redisbroker"},
}

// A release is recorded everywhere a user looks: a dated CHANGELOG
// section, the README, and the modules beside the main module requiring
// the main module at the same version (a replace directive is ignored
// when a module is a dependency, so a placeholder version there would
// break every user of a tagged module). Between releases the version
// carries "-dev" and the CHANGELOG has its Unreleased section.
func TestReleaseRecorded(t *testing.T) {
	v := mcpwire.Version
	if !regexp.MustCompile(`^\d+\.\d+\.\d+(-dev)?$`).MatchString(v) {
		t.Fatalf("Version %q is not X.Y.Z or X.Y.Z-dev", v)
	}
	changelog := readFile(t, "CHANGELOG.md")
	if !strings.Contains(changelog, "\n## [Unreleased]\n") {
		t.Error("CHANGELOG.md has no \"## [Unreleased]\" section")
	}
	readme := readFile(t, "README.md")
	if !strings.Contains(readme, "`mcpwire.Version` is `"+v+"`") {
		t.Errorf("README.md does not say \"`mcpwire.Version` is `%s`\"", v)
	}
	if strings.HasSuffix(v, "-dev") {
		return
	}
	m := regexp.MustCompile(`\n## \[` + regexp.QuoteMeta(v) + `\] - (\d{4}-\d{2}-\d{2})\n`).FindStringSubmatch(changelog)
	if m == nil {
		t.Fatalf("CHANGELOG.md has no \"## [%s] - YYYY-MM-DD\" section", v)
	}
	if _, err := time.Parse(time.DateOnly, m[1]); err != nil {
		t.Errorf("CHANGELOG.md: the date of %s: %v", v, err)
	}
	for dir, deps := range releasedModules {
		mod := readFile(t, filepath.Join(dir, "go.mod"))
		for _, dep := range deps {
			want := "\t" + dep + " v" + v + "\n"
			if !strings.Contains(mod, want) {
				t.Errorf("%s/go.mod does not require %s v%s", dir, dep, v)
			}
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}
