package skill

import (
	"bytes"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// ExtensionID is the Skills extension's identifier, the key of its
// capability in capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/skills"

// The extension's methods.
const (
	MethodList          = "skills/list"
	MethodGet           = "skills/get"
	MethodDirectoryRead = "resources/directory/read"
)

// Limits the extension sets on one skill: hosts must accept skills up to
// them, and servers should serve none beyond them. A Set refuses a skill
// beyond either.
const (
	MaxFiles = 512      // files of one skill, SKILL.md included
	MaxBytes = 16 << 20 // bytes of one skill's files together
)

// DirectoryMIMEType is the MIME type of a directory among the children
// resources/directory/read lists.
const DirectoryMIMEType = "inode/directory"

// Entry is a skill as skills/list and skills/get give it: the URI of its
// SKILL.md, that file's frontmatter, and the manifest of its files.
type Entry struct {
	// URI is the skill's SKILL.md, such as skill://pdf-processing/SKILL.md;
	// the segment before SKILL.md is the skill's name.
	URI string
	// Frontmatter is SKILL.md's YAML frontmatter as a JSON object, name
	// and description among its members.
	Frontmatter json.RawMessage
	// Files is the manifest: every file of the skill, SKILL.md included,
	// with its digest and size. Empty when Dynamic.
	Files []File
	// Dynamic: the server lists no manifest (the wire's "dynamic"), so
	// that only the frontmatter can be checked.
	Dynamic bool
}

// File is one file of a skill's manifest.
type File struct {
	// URI is the file's, under the skill's root.
	URI string `json:"uri"`
	// Digest is "sha256:" and the lowercase hex SHA-256 of its bytes.
	Digest string `json:"digest"`
	// Size is its length in bytes.
	Size int64 `json:"size"`
}

// entryWire is Entry as the wire spells it.
type entryWire struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

// MarshalJSON writes the entry, its manifest as an array or "dynamic".
func (e Entry) MarshalJSON() ([]byte, error) {
	w := entryWire{URI: e.URI, Frontmatter: e.Frontmatter, Resources: json.RawMessage(`"dynamic"`)}
	if w.Frontmatter == nil {
		w.Frontmatter = json.RawMessage(`{}`)
	}
	if !e.Dynamic {
		files := e.Files
		if files == nil {
			files = []File{}
		}
		b, err := json.Marshal(files)
		if err != nil {
			return nil, err
		}
		w.Resources = b
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an entry: resources must be an array or "dynamic",
// frontmatter an object.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var w entryWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if len(bytes.TrimSpace(w.Frontmatter)) == 0 || bytes.TrimSpace(w.Frontmatter)[0] != '{' {
		return errors.New("skill: an entry's frontmatter is not an object")
	}
	*e = Entry{URI: w.URI, Frontmatter: w.Frontmatter}
	switch r := bytes.TrimSpace(w.Resources); {
	case string(r) == `"dynamic"`:
		e.Dynamic = true
	case len(r) > 0 && r[0] == '[':
		return json.Unmarshal(r, &e.Files)
	default:
		return errors.New(`skill: an entry's resources are neither an array nor "dynamic"`)
	}
	return nil
}

// file returns the manifest's line for uri.
func (e *Entry) file(uri string) (File, bool) {
	for _, f := range e.Files {
		if f.URI == uri {
			return f, true
		}
	}
	return File{}, false
}

// The methods' params and results.
type (
	listParams struct {
		Cursor string `json:"cursor"`
	}
	listResult struct {
		protocol.Envelope
		protocol.CacheHints
		Skills     []Entry `json:"skills"`
		NextCursor *string `json:"nextCursor,omitempty"`
	}
	getParams struct {
		URI string `json:"uri"`
	}
	getResult struct {
		protocol.Envelope
		protocol.CacheHints
		Skill Entry `json:"skill"`
	}
	directoryParams struct {
		URI    string `json:"uri"`
		Cursor string `json:"cursor"`
	}
	directoryResult struct {
		protocol.Envelope
		Resources  []protocol.Resource `json:"resources"`
		NextCursor *string             `json:"nextCursor,omitempty"`
	}
)
