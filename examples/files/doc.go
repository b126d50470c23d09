// Command files is an example server to copy: file-system tools over stdio,
// confined to one root directory, each answering permission probes.
//
//	go build -o files ./examples/files
//	./files -root ~/notes
//
// Its tools, all read-only:
//
//   - list_dir lists a directory ("." is the root);
//   - read_file returns a text file, as plain text;
//   - search finds the lines holding a text in the files under a directory.
//
// Every path is relative to the root. A path that climbs out of it ("..")
// is refused, and so is any path through a symbolic link: files are opened
// with probe.Root.OpenFile, which follows no link, so a link pointing out
// of the root can never be read through.
//
// Each tool answers permission probes (package probe): a host that sends
// a tools/call whose _meta holds "forge.permission_patterns": true gets the
// access the call would need, such as "read:notes/todo.txt", with nothing
// read, and can approve it before it calls for real.
//
// It imports three mcpwire packages: mcp, tool and probe. files_test.go
// drives it in memory with package mcptest.
package main
