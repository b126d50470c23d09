package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"syscall"
	"time"
)

// listening matches the line a benchmark server prints to stderr once its
// Streamable HTTP endpoint is bound.
var listening = regexp.MustCompile(`listening on (http://\S+)`)

// httpServer is a running "SERVER -http 127.0.0.1:0".
type httpServer struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// startHTTP starts server with -http on a free loopback port and waits for
// its URL, at most ten seconds.
func startHTTP(server string) (*httpServer, error) {
	cmd := exec.Command(server, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &httpServer{cmd: cmd, done: make(chan error, 1)}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		s.done <- cmd.Wait()
	}()
	select {
	case s.url = <-found:
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("%s exited before listening: %v", server, err)
	case <-time.After(10 * time.Second):
		s.stop()
		return nil, errors.New(server + " printed no URL in 10 s")
	}
}

// stop sends SIGTERM and waits for the server to exit, killing it after
// five seconds.
func (s *httpServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	select {
	case <-s.done:
	case <-ctx.Done():
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}
