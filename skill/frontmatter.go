package skill

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/goccy/go-yaml"
)

// fileName is the file every skill has at its root.
const fileName = "SKILL.md"

// frontmatterPattern finds SKILL.md's frontmatter: a block between two
// "---" lines at the very start (after a byte order mark).
var frontmatterPattern = regexp.MustCompile(`^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)`)

// namePattern is the rule for a skill's name: 1 to 64 lowercase letters,
// digits and hyphens, no hyphen first or last, no two in a row.
var namePattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`)

// checkName checks a skill's name.
func checkName(name string) error {
	if !namePattern.MatchString(name) || strings.Contains(name, "--") {
		return fmt.Errorf("skill: name %q breaks the naming rule (1 to 64 of a-z, 0-9 and -, no - first, last or twice in a row)", name)
	}
	return nil
}

// frontmatter is what SKILL.md's frontmatter says, and the frontmatter
// as a JSON object.
type frontmatter struct {
	name, description string
	json              json.RawMessage
}

// parseFrontmatter reads SKILL.md's frontmatter: a YAML mapping with a
// non-empty string name and description.
func parseFrontmatter(text []byte) (frontmatter, error) {
	text = bytes.TrimPrefix(text, []byte("\uFEFF"))
	m := frontmatterPattern.FindSubmatch(text)
	if m == nil {
		return frontmatter{}, errors.New("SKILL.md does not start with a frontmatter block between --- lines")
	}
	var v map[string]any
	if err := yaml.Unmarshal(m[1], &v); err != nil {
		return frontmatter{}, fmt.Errorf("SKILL.md's frontmatter is not a YAML mapping: %v", err)
	}
	name, _ := v["name"].(string)
	description, _ := v["description"].(string)
	if name == "" || description == "" {
		return frontmatter{}, errors.New("SKILL.md's frontmatter needs a non-empty string name and description")
	}
	if v == nil {
		v = map[string]any{}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return frontmatter{}, fmt.Errorf("SKILL.md's frontmatter has no JSON form: %v", err)
	}
	return frontmatter{name: name, description: description, json: b}, nil
}

// sameFrontmatter reports whether two frontmatters in their JSON form say
// the same, member by member, a null member counting as absent.
func sameFrontmatter(a, b json.RawMessage) bool {
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	for _, m := range []map[string]any{x, y} {
		for k, v := range m {
			if v == nil {
				delete(m, k)
			}
		}
	}
	return reflect.DeepEqual(x, y)
}
