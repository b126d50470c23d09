package skill

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// Options configure a Set.
type Options struct {
	// DirectoryRead serves resources/directory/read, which lists a skill
	// directory's files and subdirectories, and advertises it
	// (directoryRead in the extension's capability).
	DirectoryRead bool
}

// Set is the skills a server serves. Add skills to it, then give
// Extension to mcp.NewServer: the server advertises the extension on
// 2026-07-28 connections (capabilities.extensions, with resources),
// answers skills/list (paged with the server's sealed cursors) and
// skills/get (both with cache hints), and serves every file of every
// skill as a resource (SKILL.md as text/markdown, named and described by
// its frontmatter). Skills added once the server is built are served
// too.
type Set struct {
	opts Options

	mu      sync.RWMutex
	skills  []*served          // in the order added
	byURI   map[string]*served // by SKILL.md's URI
	version string             // changes with every skill added (cursors)
	srv     *mcp.Server        // set by Extension's Attach
}

// served is one skill: its entry, computed once, and its files.
type served struct {
	entry Entry
	root  string // skill://<path>
	files []servedFile
}

// servedFile is one file of a skill.
type servedFile struct {
	rel  string // its path under the skill's root
	data []byte
}

// NewSet returns an empty Set.
func NewSet(opts Options) *Set {
	return &Set{opts: opts, byURI: map[string]*served{}}
}

// AddFS adds every skill of root: each directory holding a SKILL.md is
// a skill, its path in root the skill's path (the skill is
// skill://<path>/SKILL.md and its name the path's last segment), and
// every file below it one of its files (a directory holding a SKILL.md
// of its own is another skill, not part of this one).
func (s *Set) AddFS(root fs.FS) error {
	var dirs []string
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() || path.Base(p) != fileName:
		case p == fileName:
			return errors.New("a SKILL.md at the file system's root has no skill path (give its directory's parent, or use Add)")
		default:
			dirs = append(dirs, path.Dir(p))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("skill: %w", err)
	}
	if len(dirs) == 0 {
		return errors.New("skill: no directory of the file system holds a SKILL.md")
	}
	for _, d := range dirs {
		sub, err := fs.Sub(root, d)
		if err != nil {
			return fmt.Errorf("skill: %w", err)
		}
		if err := s.Add(d, sub); err != nil {
			return err
		}
	}
	return nil
}

// Add adds one skill at skillPath (such as "pdf-processing", or
// "acme/billing/refunds" for skill://acme/billing/refunds/SKILL.md),
// files holding its SKILL.md and the files beside it. It refuses, with
// the rule named, a path or file name that is not made of URI-safe
// segments (A-Z a-z 0-9 . _ ~ -), a name breaking the naming rule or
// differing from the frontmatter's, a SKILL.md without name and
// description, a skill beyond MaxFiles or MaxBytes, and a skill added
// already.
func (s *Set) Add(skillPath string, files fs.FS) error {
	if err := checkPath(skillPath); err != nil {
		return fmt.Errorf("skill: path %q: %w", skillPath, err)
	}
	name := path.Base(skillPath)
	if err := checkName(name); err != nil {
		return err
	}
	sk := &served{root: "skill://" + skillPath}
	var total int64
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			if _, err := fs.Stat(files, p+"/"+fileName); err == nil {
				return fs.SkipDir // another skill
			}
			return nil
		}
		if err := checkPath(p); err != nil {
			return fmt.Errorf("file %q: %w", p, err)
		}
		data, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		total += int64(len(data))
		sk.files = append(sk.files, servedFile{rel: p, data: data})
		return nil
	})
	if err != nil {
		return fmt.Errorf("skill %q: %w", skillPath, err)
	}
	i := slices.IndexFunc(sk.files, func(f servedFile) bool { return f.rel == fileName })
	switch {
	case i < 0:
		return fmt.Errorf("skill %q: no %s", skillPath, fileName)
	case len(sk.files) > MaxFiles:
		return fmt.Errorf("skill %q: %d files, more than the extension's limit of %d", skillPath, len(sk.files), MaxFiles)
	case total > MaxBytes:
		return fmt.Errorf("skill %q: %d bytes, more than the extension's limit of %d (16 MiB)", skillPath, total, MaxBytes)
	}
	if !utf8.Valid(sk.files[i].data) {
		return fmt.Errorf("skill %q: %s is not UTF-8 text", skillPath, fileName)
	}
	fm, err := parseFrontmatter(sk.files[i].data)
	if err != nil {
		return fmt.Errorf("skill %q: %w", skillPath, err)
	}
	if fm.name != name {
		return fmt.Errorf("skill %q: its frontmatter names it %q; the name is the path's last segment, %q", skillPath, fm.name, name)
	}
	// SKILL.md first, then the others in path order (WalkDir's).
	sk.files[0], sk.files[i] = sk.files[i], sk.files[0]
	slices.SortFunc(sk.files[1:], func(a, b servedFile) int { return strings.Compare(a.rel, b.rel) })
	sk.entry = Entry{URI: sk.root + "/" + fileName, Frontmatter: fm.json}
	for _, f := range sk.files {
		sum := sha256.Sum256(f.data)
		sk.entry.Files = append(sk.entry.Files, File{URI: sk.root + "/" + f.rel, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(f.data))})
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.byURI[sk.entry.URI]; dup {
		return fmt.Errorf("skill %q is added already", skillPath)
	}
	s.skills = append(s.skills, sk)
	s.byURI[sk.entry.URI] = sk
	h := sha256.Sum256([]byte(s.version + sk.entry.URI))
	s.version = hex.EncodeToString(h[:8])
	if s.srv != nil {
		return s.serveFiles(s.srv, sk, fm)
	}
	return nil
}

// AddFiles adds one skill from Go values: files maps each file's path
// under the skill's root ("SKILL.md", "references/FORMS.md") to its
// contents. See Add.
func (s *Set) AddFiles(skillPath string, files map[string]string) error {
	m := mapFS{}
	for p, text := range files {
		m[p] = text
	}
	return s.Add(skillPath, m)
}

// checkPath checks a slash-separated path: non-empty segments of URI-safe
// characters, none "." or "..".
func checkPath(p string) error {
	if p == "" {
		return errors.New("empty")
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return errors.New("an empty, . or .. segment")
		}
		for _, c := range seg {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._~-", c)) {
				return fmt.Errorf("the character %q is not one of A-Z a-z 0-9 . _ ~ -", c)
			}
		}
	}
	return nil
}

// Extension is the Skills extension serving the set, for
// mcp.Options.Extensions. A Set serves one server.
func (s *Set) Extension() mcp.Extension {
	capability := protocol.Object{}
	methods := []mcp.Method{
		{Name: MethodList, Cacheable: true, Handler: mcp.Handle(s.list)},
		{Name: MethodGet, Cacheable: true, Handler: mcp.Handle(s.get)},
	}
	if s.opts.DirectoryRead {
		capability["directoryRead"] = json.RawMessage("true")
		methods = append(methods, mcp.Method{Name: MethodDirectoryRead, Handler: mcp.Handle(s.directory)})
	}
	return mcp.Extension{ID: ExtensionID, Capability: capability, Methods: methods, Attach: s.attach}
}

// attach serves the files of the skills added so far as resources.
func (s *Set) attach(srv *mcp.Server) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return errors.New("skill: a Set serves one server")
	}
	s.srv = srv
	for _, sk := range s.skills {
		fm, _ := parseFrontmatter(sk.files[0].data)
		if err := s.serveFiles(srv, sk, fm); err != nil {
			return err
		}
	}
	return nil
}

// serveFiles registers a skill's files as resources of srv.
func (s *Set) serveFiles(srv *mcp.Server, sk *served, fm frontmatter) error {
	for i, f := range sk.files {
		size := int64(len(f.data))
		r := mcp.Resource{URI: sk.root + "/" + f.rel, Name: f.rel, MimeType: mimeType(f.rel), Size: &size}
		if i == 0 {
			r.Name, r.Description = fm.name, fm.description
		}
		if utf8.Valid(f.data) {
			r.Read = mcp.StaticRead(string(f.data))
		} else {
			r.Read = mcp.StaticRead(f.data)
		}
		if err := srv.AddResource(r); err != nil {
			return fmt.Errorf("skill: %w", err)
		}
	}
	return nil
}

// mimeType is a skill file's MIME type: text/markdown for Markdown, the
// extension's registered type otherwise, application/octet-stream when
// none is known.
func mimeType(p string) string {
	ext := path.Ext(p)
	if ext == ".md" || ext == ".markdown" {
		return "text/markdown"
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

func (s *Set) list(ctx context.Context, p *listParams) (*listResult, error) {
	s.mu.RLock()
	all, version := s.skills, s.version
	s.mu.RUnlock()
	start, end, next, err := mcp.Page(ctx, MethodList, version, p.Cursor, len(all))
	if err != nil {
		return nil, err
	}
	out := &listResult{Skills: make([]Entry, 0, end-start), NextCursor: next}
	for _, sk := range all[start:end] {
		out.Skills = append(out.Skills, sk.entry)
	}
	return out, nil
}

func (s *Set) get(_ context.Context, p *getParams) (*getResult, error) {
	s.mu.RLock()
	sk := s.byURI[p.URI]
	s.mu.RUnlock()
	if sk == nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "no skill at %q", p.URI).WithData(map[string]any{"uri": p.URI})
	}
	return &getResult{Skill: sk.entry}, nil
}

// directory lists the files and subdirectories directly under a skill's
// root or one of its directories.
func (s *Set) directory(ctx context.Context, p *directoryParams) (*directoryResult, error) {
	children, version, ok := s.children(strings.TrimSuffix(p.URI, "/"))
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "%q is not a skill directory", p.URI).WithData(map[string]any{"uri": p.URI})
	}
	start, end, next, err := mcp.Page(ctx, MethodDirectoryRead+" "+p.URI, version, p.Cursor, len(children))
	if err != nil {
		return nil, err
	}
	return &directoryResult{Resources: children[start:end], NextCursor: next}, nil
}

// children lists what is directly under the directory dir (a skill's
// root or a directory below it), with the set's version, reporting false
// when dir is none.
func (s *Set) children(dir string) ([]protocol.Resource, string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, sk := range s.skills {
		if dir != sk.root && !strings.HasPrefix(dir, sk.root+"/") {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(dir, sk.root), "/")
		var out []protocol.Resource
		seen := map[string]bool{}
		found := rel == ""
		for _, f := range sk.files {
			rest, ok := strings.CutPrefix(f.rel, rel+"/")
			if rel == "" {
				rest, ok = f.rel, true
			}
			if !ok {
				continue
			}
			found = true
			child, _, isDir := strings.Cut(rest, "/")
			if seen[child] {
				continue
			}
			seen[child] = true
			uri := dir + "/" + child
			if isDir {
				out = append(out, protocol.Resource{URI: uri, Name: child, MimeType: DirectoryMIMEType})
			} else {
				out = append(out, protocol.Resource{URI: uri, Name: child, MimeType: mimeType(child)})
			}
		}
		if found {
			return out, s.version, true
		}
	}
	return nil, "", false
}
