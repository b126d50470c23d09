// Package examples holds three example servers to copy, each a command of
// its own, written the way README.md teaches and tested end to end:
//
//   - files: file-system tools over stdio (list, read, search), confined
//     to a root directory, answering permission probes (package probe);
//   - restapi: tools wrapping a REST API, over Streamable HTTP, behind
//     OAuth (package oauth);
//   - notes: resources, a resource template, a prompt with completion and
//     one tool, over stdio.
//
// This package has no code of its own. Its test holds each example to the
// mcpwire packages it is meant to import, and builds the stdio examples
// and drives them over real pipes, as a host does.
package examples
