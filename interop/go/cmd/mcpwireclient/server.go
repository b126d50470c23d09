package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// startWait bounds how long an HTTP server may take to accept connections.
const startWait = 20 * time.Second

// httpServer is a Streamable HTTP server this run started.
type httpServer struct {
	url  string
	cmd  *exec.Cmd
	done chan struct{}
}

// freePort returns a loopback port nobody listens on now.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}

// startHTTP starts command with {port} in its arguments and PORT in its
// environment set to a free port, and waits until the port accepts
// connections.
func startHTTP(ctx context.Context, command []string, path string, stderr io.Writer) (*httpServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := make([]string, len(command))
	for i, a := range command {
		args[i] = strings.ReplaceAll(a, "{port}", port)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "PORT="+port)
	cmd.Stdout = stderr
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &httpServer{url: "http://127.0.0.1:" + port + path, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(s.done) }()
	addr := net.JoinHostPort("127.0.0.1", port)
	deadline := time.Now().Add(startWait)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return s, nil
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("%s exited before listening on port %s", args[0], port)
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("%s did not listen on port %s within %v", args[0], port, startWait)
		}
	}
}

// stop ends the server with SIGTERM, and kills it after 2 s.
func (s *httpServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(2 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}
