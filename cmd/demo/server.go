package main

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
)

// server is a running cmd/everything process with its stdin and stdout on
// pipes. Its methods are meant for one goroutine, the session's.
type server struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // the server's stdout, one line at a time; closed at EOF
	exited chan error  // receives cmd.Wait's result once stdout has ended
	stderr bytes.Buffer
}

// startServer starts bin with args, stdin and stdout piped and stderr kept
// in a buffer (readable once the process has exited).
func startServer(bin string, args ...string) (*server, error) {
	s := &server{
		cmd:    exec.Command(bin, args...),
		lines:  make(chan []byte, 1024),
		exited: make(chan error, 1),
	}
	s.cmd.Stderr = &s.stderr
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	s.stdin = stdin
	go s.readLoop(stdout)
	return s, nil
}

// readLoop forwards the server's stdout line by line until EOF, then waits
// for the process (cmd.Wait must not run before reading is over).
func (s *server) readLoop(stdout io.Reader) {
	r := bufio.NewReader(stdout)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			s.lines <- bytes.TrimRight(line, "\r\n")
		}
		if err != nil {
			break
		}
	}
	close(s.lines)
	s.exited <- s.cmd.Wait()
}

// write sends one line (a newline is appended) to the server's stdin.
func (s *server) write(line []byte) error {
	_, err := s.stdin.Write(append(line[:len(line):len(line)], '\n'))
	return err
}

// closeStdin closes the server's stdin, which asks it to shut down.
func (s *server) closeStdin() error { return s.stdin.Close() }

// kill ends the process.
func (s *server) kill() { _ = s.cmd.Process.Kill() }

// exitCode is the exit status carried by cmd.Wait's error: 0 for nil, -1
// when the process did not exit normally.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
