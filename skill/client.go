package skill

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/clip"
)

// The rules a skill a client loads is checked against; a refusal wraps
// one of them and names the file.
var (
	// ErrSizeMismatch: a file's length differs from its manifest's size.
	ErrSizeMismatch = errors.New("skill: size mismatch")
	// ErrDigestMismatch: a file's SHA-256 differs from its manifest's
	// digest.
	ErrDigestMismatch = errors.New("skill: digest mismatch")
	// ErrFrontmatterMismatch: SKILL.md's frontmatter differs from the
	// entry's, or SKILL.md has none.
	ErrFrontmatterMismatch = errors.New("skill: frontmatter mismatch")
	// ErrNotInManifest: the entry's manifest does not list the file.
	ErrNotInManifest = errors.New("skill: not in the manifest")
)

// Declare is the client's declaration of the Skills extension, for
// client.Options.Extensions.
var Declare = client.Extension{ID: ExtensionID}

// List lists the server's skills (skills/list, every page), reading no
// file: a skill's files are fetched only when it is loaded (Load).
func List(ctx context.Context, c *client.Client) iter.Seq2[*Entry, error] {
	return func(yield func(*Entry, error) bool) {
		cursor := ""
		seen := map[string]bool{}
		for {
			var page listResult
			params := map[string]any{}
			if cursor != "" {
				params["cursor"] = cursor
			}
			if err := c.Call(ctx, MethodList, params, &page); err != nil {
				yield(nil, err)
				return
			}
			for i := range page.Skills {
				if !yield(&page.Skills[i], nil) {
					return
				}
			}
			if page.NextCursor == nil || *page.NextCursor == "" {
				return
			}
			if cursor = *page.NextCursor; seen[cursor] {
				yield(nil, fmt.Errorf("skill: %s repeated the cursor %q", MethodList, cursor))
				return
			}
			seen[cursor] = true
		}
	}
}

// Get returns the entry of the skill at uri (skills/get).
func Get(ctx context.Context, c *client.Client, uri string) (*Entry, error) {
	var r getResult
	if err := c.Call(ctx, MethodGet, map[string]any{"uri": uri}, &r); err != nil {
		return nil, err
	}
	if r.Skill.URI != uri {
		return nil, fmt.Errorf("skill: %s for %q answered the skill %q", MethodGet, uri, r.Skill.URI)
	}
	return &r.Skill, nil
}

// Skill is a skill loaded and checked: its SKILL.md matched its entry.
type Skill struct {
	// Entry is the entry it was loaded from.
	Entry *Entry
	// Text is SKILL.md, as read.
	Text string

	c *client.Client
}

// Name is the skill's name, the segment of its URI before SKILL.md.
func (s *Skill) Name() string {
	root := strings.TrimSuffix(s.Entry.URI, "/"+fileName)
	return root[strings.LastIndex(root, "/")+1:]
}

// Load reads the entry's SKILL.md and checks it before handing it over:
// its size and digest against the manifest (unless the entry is
// dynamic), then its frontmatter against the entry's. A skill that fails
// is refused with an error wrapping ErrSizeMismatch, ErrDigestMismatch or
// ErrFrontmatterMismatch; no other file is read.
func Load(ctx context.Context, c *client.Client, e *Entry) (*Skill, error) {
	data, err := readChecked(ctx, c, e, e.URI)
	if err != nil {
		return nil, err
	}
	fm, err := parseFrontmatter(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFrontmatterMismatch, e.URI, err)
	}
	if !sameFrontmatter(fm.json, e.Frontmatter) {
		return nil, fmt.Errorf("%w: %s: the file's frontmatter %s is not the entry's %s", ErrFrontmatterMismatch, e.URI, clip.Bytes(fm.json), clip.Bytes(e.Frontmatter))
	}
	return &Skill{Entry: e, Text: string(data), c: c}, nil
}

// ReadFile reads one of the skill's files, rel being its path under the
// skill's root ("references/FORMS.md"), checked against the manifest as
// SKILL.md was.
func (s *Skill) ReadFile(ctx context.Context, rel string) ([]byte, error) {
	root := strings.TrimSuffix(s.Entry.URI, fileName)
	return readChecked(ctx, s.c, s.Entry, root+rel)
}

// readChecked reads uri and checks it against e's manifest.
func readChecked(ctx context.Context, c *client.Client, e *Entry, uri string) ([]byte, error) {
	want, listed := e.file(uri)
	if !e.Dynamic && !listed {
		return nil, fmt.Errorf("%w: %s", ErrNotInManifest, uri)
	}
	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	var data []byte
	found := false
	for _, item := range res.Contents {
		switch {
		case item.Text != nil && item.Text.URI == uri:
			data, found = []byte(item.Text.Text), true
		case item.Blob != nil && item.Blob.URI == uri:
			if data, err = base64.StdEncoding.DecodeString(item.Blob.Blob); err != nil {
				return nil, fmt.Errorf("skill: %s: its blob is not base64: %v", uri, err)
			}
			found = true
		}
		if found {
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("skill: resources/read of %s held no contents for it", uri)
	}
	if e.Dynamic {
		return data, nil
	}
	if int64(len(data)) != want.Size {
		return nil, fmt.Errorf("%w: %s has %d bytes; the manifest says %d", ErrSizeMismatch, uri, len(data), want.Size)
	}
	sum := sha256.Sum256(data)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != want.Digest {
		return nil, fmt.Errorf("%w: %s has %s; the manifest says %s", ErrDigestMismatch, uri, got, clip.String(want.Digest))
	}
	return data, nil
}
