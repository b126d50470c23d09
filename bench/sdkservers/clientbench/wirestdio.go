package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// wireStdio is the floor over stdio: one server process, request lines
// written under a mutex, and one reader goroutine handing each response
// line to the caller waiting for its id.
type wireStdio struct {
	calls  wireCalls
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	mu     sync.Mutex // guards buf, next, wait and err, and orders the writes
	buf    []byte
	next   int64
	wait   map[int64]chan []byte
	err    error         // why the reader stopped; set once
	done   chan struct{} // closed when the reader has stopped
	waited chan error    // the result of cmd.Wait
}

// answers recycles the one-slot channels callers wait on.
var answers = sync.Pool{New: func() any { return make(chan []byte, 1) }}

// connectWireStdio starts command and sends server/discover.
func connectWireStdio(ctx context.Context, command []string) (session, error) {
	s, err := startWireStdio(command)
	if err != nil {
		return nil, err
	}
	answer, err := s.roundTrip(ctx, []byte(`,"method":"server/discover","params":`+wireDiscover+`}`))
	if err == nil {
		err = checkDiscover(answer)
	}
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// startWireStdio starts command and its reader goroutine.
func startWireStdio(command []string) (*wireStdio, error) {
	cmd := exec.Command(command[0], command[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &wireStdio{cmd: cmd, stdin: stdin, wait: map[int64]chan []byte{},
		done: make(chan struct{}), waited: make(chan error, 1)}
	go s.read(stdout)
	return s, nil
}

// read hands each response line to the caller waiting for its id, until
// the server's stdout ends; then it fails every waiting caller.
func (s *wireStdio) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	var err error
	for {
		var line []byte
		line, err = r.ReadBytes('\n')
		if err != nil {
			break
		}
		id, ok := responseID(line)
		if !ok {
			continue // a notification
		}
		s.mu.Lock()
		ch := s.wait[id]
		delete(s.wait, id)
		s.mu.Unlock()
		if ch != nil {
			ch <- line
		}
	}
	s.mu.Lock()
	s.err = fmt.Errorf("wire: the server's stdout ended: %w", err)
	for id, ch := range s.wait {
		delete(s.wait, id)
		close(ch)
	}
	s.mu.Unlock()
	close(s.done)
	s.waited <- s.cmd.Wait()
}

// roundTrip writes one request line, its id fresh and its text after the
// id suffix, and returns the response line.
func (s *wireStdio) roundTrip(ctx context.Context, suffix []byte) ([]byte, error) {
	ch := answers.Get().(chan []byte)
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return nil, s.err
	}
	s.next++
	id := s.next
	s.wait[id] = ch
	s.buf = append(appendRequest(s.buf[:0], id, suffix), '\n')
	_, err := s.stdin.Write(s.buf)
	if err != nil {
		delete(s.wait, id)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("wire: writing to the server: %w", err)
	}
	select {
	case line, ok := <-ch:
		if !ok {
			return nil, s.err // closed by read, after it set s.err
		}
		answers.Put(ch)
		return line, nil
	case <-ctx.Done():
		s.mu.Lock()
		delete(s.wait, id)
		s.mu.Unlock()
		return nil, ctx.Err() // ch may yet receive: it is not recycled
	}
}

func (s *wireStdio) echo(ctx context.Context, _ map[string]any, want string) error {
	c := s.calls.get(want)
	line, err := s.roundTrip(ctx, c.suffix)
	if err != nil {
		return err
	}
	return c.check(line)
}

func (s *wireStdio) revision() string { return wireRevision }

// close closes the server's stdin and waits for it to exit, killing it
// after five seconds.
func (s *wireStdio) close() error {
	_ = s.stdin.Close()
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
		return errors.New("wire: the server did not exit within 5 s of its stdin closing; killed")
	}
	return <-s.waited
}
