package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// exitGrace is how long a server may take to exit once its stdin is
// closed before it is killed (a variable for this package's tests).
var exitGrace = 2 * time.Second

// server is the reviewed server's process and the connection over its
// stdin and stdout; its stderr is kept, last lines only.
type server struct {
	name   string // the command's base name, for messages
	cmd    *exec.Cmd
	conn   *transport.Stream
	stdout *sniffer
	stderr *tail

	exited  chan struct{} // closed when Wait returned
	waitErr error         // what Wait returned; set before exited closes

	stopOnce sync.Once
	killed   bool // stop killed it; read after stopOnce
}

// startServer starts argv with pipes for its stdin and stdout (see
// startPiped).
func startServer(argv []string) (*server, error) {
	s := &server{name: filepath.Base(argv[0]), stderr: newTail(tailLines), exited: make(chan struct{})}
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = s.stderr
	inW, outR, err := startPiped(s.cmd)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", s.name, err)
	}
	s.stdout = newSniffer(outR)
	s.conn = transport.NewStream(s.stdout, inW, transport.Options{})
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	return s, nil
}

// stop closes the connection (the server sees its stdin end), waits
// exitGrace for the server to exit and kills it, with its process group,
// if it has not. It is idempotent and returns once the process has been
// waited for.
func (s *server) stop() {
	s.stopOnce.Do(func() {
		s.conn.Close()
		select {
		case <-s.exited:
			return
		case <-time.After(exitGrace):
		}
		s.killed = kill(s.cmd) == nil
		<-s.exited
	})
}

// exit describes how the process ended; call it after stop.
func (s *server) exit() string {
	var ee *exec.ExitError
	switch {
	case s.killed:
		return fmt.Sprintf("it did not exit within %v of its stdin closing and was killed", exitGrace)
	case s.waitErr == nil:
		return "it exited with status 0"
	case errors.As(s.waitErr, &ee) && ee.Exited():
		return fmt.Sprintf("it exited with status %d", ee.ExitCode())
	}
	return "it ended: " + s.waitErr.Error()
}

// startPiped starts cmd in a process group of its own (ownGroup: a signal
// sent to ours does not reach it twice, and a kill ends what it started)
// with pipes for its stdin and stdout, and returns our ends: in, which the
// command reads, and out, which it writes. The pipes are made here, not by
// exec, so that the process's exit never closes the end we read before we
// have read what it wrote.
func startPiped(cmd *exec.Cmd) (in, out *os.File, err error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	cmd.WaitDelay = time.Second // a child that keeps stderr open does not hold Wait
	ownGroup(cmd)
	err = cmd.Start()
	inR.Close() // the child's ends: the child holds them now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, err
	}
	return inW, outR, nil
}
