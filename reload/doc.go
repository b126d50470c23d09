// Package reload keeps a configuration value in step with a file on disk.
//
// [Watch] parses the file once, then polls it: an [os.Stat] every interval
// (500 ms by default) and a read only when the size or modification time
// moved, or when the modification time is too recent to be trusted. A new
// value is parsed only when the SHA-256 of the content changed, so touching
// the file or rewriting identical bytes does nothing. A burst of writes is
// debounced: changed content must stay the same for the debounce window
// (100 ms by default) before it is parsed, so the burst yields one reload
// with the final content.
//
// When the new content does not parse, the watcher keeps the last good
// value, logs why through its [slog.Logger] once per bad content, and does
// not call onChange. The file may also vanish for a while, as editors that
// save by renaming make it do; the last good value stays until a good file
// returns.
//
// No fsnotify or other dependency is used: polling works the same on every
// platform and file system, including network and container mounts.
package reload
