package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/proc"
	"github.com/mcpwire/mcpwire/transport"
)

// exitGrace is how long a server may take to exit once its stdin is
// closed, and then once it is sent SIGTERM, before the next step.
var exitGrace = 2 * time.Second

// server is the reviewed server's process and the connection over its
// stdin and stdout; its stderr is kept, last lines only.
type server struct {
	name   string // the command's base name, for messages
	proc   *proc.Process
	conn   *transport.Stream
	stdout *sniffer
	stderr *tail
}

// startServer starts argv with pipes for its stdin and stdout.
func startServer(argv []string) (*server, error) {
	s := &server{name: filepath.Base(argv[0]), stderr: newTail(tailLines)}
	p, err := proc.Start(argv, proc.Options{Stderr: s.stderr, Grace: exitGrace})
	if err != nil {
		return nil, err
	}
	s.proc = p
	s.stdout = newSniffer(p.Stdout())
	s.conn = transport.NewStream(s.stdout, p.Stdin(), transport.Options{})
	return s, nil
}

// stop closes the connection (the server sees its stdin end) and ends the
// server as proc.Process.Stop does. It is idempotent and returns once the
// process has been waited for.
func (s *server) stop() {
	s.conn.Close()
	s.proc.Stop(context.Background())
}

// exit describes how the process ended; call it after stop.
func (s *server) exit() string { return s.proc.Describe() }
