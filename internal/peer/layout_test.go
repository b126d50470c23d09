package peer

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayout holds the cut the peer group and test support were moved for:
// the leaf helpers under internal/ import neither group, the peer group
// never imports the server, and library code imports test support only
// where the golden engine checks for leaks.
func TestLayout(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/mcpwire/mcpwire/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/mcpwire/mcpwire/"
	server := map[string]bool{mod + "mcp": true, mod + "mcphttp": true}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		leaf := strings.HasPrefix(pkg, "internal/") && !strings.HasPrefix(pkg, "internal/peer") && !strings.HasPrefix(pkg, "internal/testsupport")
		peer := strings.HasPrefix(pkg, "internal/peer/")
		for _, imp := range fields[1:] {
			switch {
			case leaf && (strings.HasPrefix(imp, mod+"internal/peer") || strings.HasPrefix(imp, mod+"internal/testsupport")):
				t.Errorf("leaf helper %s imports %s", pkg, imp)
			case peer && server[imp]:
				t.Errorf("peer package %s imports the server package %s", pkg, imp)
			case strings.HasPrefix(imp, mod+"internal/testsupport/") && !strings.HasPrefix(pkg, "internal/testsupport/") && pkg != "internal/peer/golden":
				t.Errorf("library package %s imports test support %s", pkg, imp)
			}
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("go list listed %d packages; want the whole module", checked)
	}
}
