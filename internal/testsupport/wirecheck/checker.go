package wirecheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	json "github.com/goccy/go-json"
)

// revisionName matches the directory names Load accepts: MCP revisions are
// dates.
var revisionName = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Checker validates instances against the MCP schemas it loaded. It is safe
// for concurrent use. Each revision's schema is compiled on first use, once,
// and compiled definitions are cached.
type Checker struct {
	revs map[string]*revision
}

// Load reads every dir/<revision>/schema.json, where <revision> is a date
// such as 2025-06-18. Other entries of dir (LICENSE, README.md) are ignored.
// It returns an error when dir holds no schema or a schema is not JSON.
// Nothing is compiled yet.
func Load(dir string) (*Checker, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("wirecheck: %w", err)
	}
	c := &Checker{revs: make(map[string]*revision)}
	for _, e := range entries {
		if !e.IsDir() || !revisionName.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name(), "schema.json")
		raw, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("wirecheck: %w", err)
		}
		r, err := newRevision(e.Name(), raw)
		if err != nil {
			return nil, fmt.Errorf("wirecheck: %s: %w", path, err)
		}
		c.revs[e.Name()] = r
	}
	if len(c.revs) == 0 {
		return nil, fmt.Errorf("wirecheck: no <revision>/schema.json under %s", dir)
	}
	return c, nil
}

// Revisions returns the loaded revisions, oldest first.
func (c *Checker) Revisions() []string {
	revs := make([]string, 0, len(c.revs))
	for name := range c.revs {
		revs = append(revs, name)
	}
	slices.Sort(revs)
	return revs
}

// Definition validates instance, a JSON document, against the definition
// def (for example "CallToolResult") of revision rev: first by the schema,
// then strictly (see the package documentation). It returns nil when the
// instance is valid, an *Error listing the problems when it is not, and a
// plain error when rev or def is unknown.
func (c *Checker) Definition(rev, def string, instance []byte) error {
	r, err := c.revision(rev)
	if err != nil {
		return err
	}
	if !r.hasDef(def) {
		return fmt.Errorf("wirecheck: %s defines no %q", rev, def)
	}
	v, err := decodeInstance(instance)
	if err != nil {
		return errorOf(rev, def, []Problem{{Message: err.Error()}})
	}
	problems, err := r.check(r.defLoc(def), instance, v, "")
	if err != nil {
		return err
	}
	return errorOf(rev, def, problems)
}

// revision returns the loaded revision named rev.
func (c *Checker) revision(rev string) (*revision, error) {
	r, ok := c.revs[rev]
	if !ok {
		return nil, fmt.Errorf("wirecheck: revision %q not loaded (have %v)", rev, c.Revisions())
	}
	return r, nil
}

// decodeInstance decodes one JSON value, keeping numbers exact.
func decodeInstance(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("not JSON: data after the first value")
	}
	return v, nil
}
