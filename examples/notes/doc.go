// Command notes is an example server to copy: resources, a resource
// template, a prompt with completion and one tool, over stdio.
//
//	go build -o notes ./examples/notes
//	./notes
//
// What it serves (the specification's Resources, Prompts and Completion
// sections):
//
//   - the resource notes://guide, a static text (mcp.StaticRead);
//   - the resource template note://{name}, one note by name, whose name
//     variable completes from the notes that exist;
//   - the prompt summarize, which asks the model to summarize a note, its
//     note argument completing from the notes that exist and its style
//     argument from a fixed list;
//   - the tool add_note, which saves a note (in memory) and tells
//     subscribers of its URI that it changed.
//
// It imports two mcpwire packages, mcp and tool. notes_test.go drives it in
// memory with package mcptest, in both eras.
package main
