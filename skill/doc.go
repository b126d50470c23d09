// Package skill is the Skills extension (io.modelcontextprotocol/skills,
// SEP-2640) on both sides: a server serves skills, a client lists them
// and loads the ones it needs, checked.
//
// A skill is a directory whose SKILL.md starts with a YAML frontmatter
// naming it and saying what it is for (name and description, both
// required), beside the files it refers to. Its URI is
// skill://<path>/SKILL.md, the path's last segment its name.
//
// # Serving skills
//
// A [Set] holds the skills: [Set.AddFS] takes every skill of a file
// system (an embed.FS, os.DirFS), [Set.Add] one skill, [Set.AddFiles]
// one skill from Go values. Each is checked once, when added: its path
// and name, its frontmatter (the name must be the path's last segment),
// and the extension's limits ([MaxFiles], [MaxBytes]); its manifest (a
// digest and size per file) is computed then. [Set.Extension] goes in
// mcp.Options.Extensions; the server then answers skills/list (paged
// with its sealed cursors) and skills/get, both with cache hints, and
// resources/directory/read with [Options].DirectoryRead, and serves every
// file of every skill as a resource. The extension is a 2026-07-28 one:
// legacy clients see the files as resources and nothing else.
//
// Choices where the extension leaves room: path segments and file names
// are limited to A-Z a-z 0-9 . _ ~ - (nothing needs escaping in a URI);
// files that are UTF-8 are served as text, others as blobs; Markdown is
// text/markdown, other types come from the file name's extension;
// resources/directory/read lists a directory's direct children, a
// subdirectory with the MIME type inode/directory, and is refused with
// -32602 for anything but a skill's root or a directory in it, as
// skills/get is for an unknown skill. The frontmatter is read with
// goccy/go-yaml and carried as JSON.
//
// # Using skills
//
// A client declares the extension ([Declare] in client.Options.Extensions)
// and calls [List], which reads no file: a skill's files are fetched
// only when [Load] loads it. Load reads SKILL.md and checks it before
// handing it over: its size, then its digest, against the manifest, then
// its frontmatter against the entry's (member by member, types included:
// YAML's 2.1 is a number). A skill that fails any is refused with an
// error naming the rule ([ErrSizeMismatch], [ErrDigestMismatch],
// [ErrFrontmatterMismatch]); [Skill.ReadFile] checks the skill's other
// files the same way. An entry whose manifest is "dynamic" can be
// checked by its frontmatter alone.
package skill
