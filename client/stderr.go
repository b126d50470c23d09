package client

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"sync"
)

// maxStderrLine bounds the part of a stderr line kept before it is
// logged; the rest of a longer line is dropped.
const maxStderrLine = 4 << 10

// lineLogger logs what a server writes to its stderr, a line at a time.
type lineLogger struct {
	log    *slog.Logger
	server string

	mu   sync.Mutex
	line []byte
	long bool // the line outgrew maxStderrLine
}

func newLineLogger(log *slog.Logger, command string) *lineLogger {
	return &lineLogger{log: log, server: filepath.Base(command)}
}

// Write logs each complete line of p and keeps the rest for later.
func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if room := maxStderrLine - len(l.line); len(part) > room {
			part, l.long = part[:room], true
		}
		l.line = append(l.line, part...)
		if i < 0 {
			break
		}
		l.flush()
		p = p[i+1:]
	}
	return n, nil
}

// flush logs the line kept.
func (l *lineLogger) flush() {
	text := string(bytes.TrimRight(l.line, "\r"))
	if l.long {
		text += "…"
	}
	l.line, l.long = l.line[:0], false
	l.log.LogAttrs(context.Background(), slog.LevelInfo, "mcp server stderr",
		slog.String("server", l.server), slog.String("line", text))
}
