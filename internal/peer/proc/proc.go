// Package proc runs an MCP server as a subprocess spoken to over its stdin
// and stdout, as a host does (the specification's stdio transport), and
// ends it the way the specification asks of a client: close its stdin,
// wait for it to exit, then SIGTERM, then SIGKILL, each step bounded.
//
// The server runs in a process group of its own on Unix, so that a signal
// sent to the client's group does not reach it twice and a kill also ends
// what it started (npx's node, a shell's child). Its stdin and stdout are
// pipes made here, not by os/exec, so that its exit never closes the end
// we read before we have read what it wrote.
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// defaultGrace is Options.Grace when it is zero.
const defaultGrace = 2 * time.Second

// Options configure Start.
type Options struct {
	// Env is the server's environment; nil gives it ours.
	Env []string
	// Dir is the server's working directory; "" is ours.
	Dir string
	// Stderr receives what the server writes to its stderr; nil
	// discards it.
	Stderr io.Writer
	// Grace is how long Stop waits for the server to exit after each
	// step (stdin closed, then SIGTERM) before taking the next; 0 means
	// 2 s.
	Grace time.Duration
}

// Ending is how a process ended.
type Ending int

// Endings, as Stop left them.
const (
	// Running: the process has not ended.
	Running Ending = iota
	// Exited: it ended by itself, or once its stdin was closed.
	Exited
	// Terminated: it ended after Stop sent SIGTERM.
	Terminated
	// Killed: it outlasted SIGTERM too and was killed.
	Killed
)

// Process is a started server.
type Process struct {
	name  string // the command's base name, for messages
	cmd   *exec.Cmd
	in    *os.File // the server's stdin, our end
	out   *os.File // the server's stdout, our end
	grace time.Duration

	exited  chan struct{} // closed once Wait returned
	waitErr error         // what Wait returned; set before exited closes

	stopOnce sync.Once
	ending   Ending // set by Stop before it returns
}

// Start starts argv (the command and its arguments) with pipes for its
// stdin and stdout.
func Start(argv []string, opts Options) (*Process, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("proc: no command")
	}
	p := &Process{name: filepath.Base(argv[0]), grace: opts.Grace, exited: make(chan struct{})}
	if p.grace <= 0 {
		p.grace = defaultGrace
	}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.Env, p.cmd.Dir, p.cmd.Stderr = opts.Env, opts.Dir, opts.Stderr
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p.cmd.Stdin, p.cmd.Stdout = inR, outW
	p.cmd.WaitDelay = time.Second // a child that keeps stderr open does not hold Wait
	ownGroup(p.cmd)
	err = p.cmd.Start()
	inR.Close() // the child's ends: the child holds them now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("starting %s: %w", p.name, err)
	}
	p.in, p.out = inW, outR
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Stdin is the server's stdin, our end: what is written here the server
// reads. Closing it is the first step of ending the server.
func (p *Process) Stdin() *os.File { return p.in }

// Stdout is the server's stdout, our end: what the server writes.
func (p *Process) Stdout() *os.File { return p.out }

// Exited is closed once the process has ended and been waited for.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Signal sends sig to the server (not to its group).
func (p *Process) Signal(sig os.Signal) error { return p.cmd.Process.Signal(sig) }

// Stop ends the server and returns how it ended: it closes the server's
// stdin, waits Grace for it to exit, then sends SIGTERM to its group and
// waits Grace again, then kills the group. ctx bounds the waiting: once it
// is done, the next step is the kill. Stop returns once the process has
// been waited for; it is idempotent, and what the server wrote before it
// ended can still be read from Stdout.
func (p *Process) Stop(ctx context.Context) Ending {
	p.stopOnce.Do(func() {
		p.in.Close()
		if p.wait(ctx) {
			p.ending = Exited
			return
		}
		if terminate(p.cmd) == nil && p.wait(ctx) {
			p.ending = Terminated
			return
		}
		kill(p.cmd)
		<-p.exited
		p.ending = Killed
	})
	return p.ending
}

// wait waits Grace, or until ctx is done, for the process to exit, and
// reports whether it did.
func (p *Process) wait(ctx context.Context) bool {
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-ctx.Done():
	case <-t.C:
	}
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// Status is the exit status a shell would report for the ended process:
// its exit code, or 128 plus the signal that ended it; 1 while it runs.
func (p *Process) Status() int {
	select {
	case <-p.exited:
	default:
		return 1
	}
	ps := p.cmd.ProcessState
	if ps == nil {
		return 1
	}
	if c := ps.ExitCode(); c >= 0 {
		return c
	}
	if sig, ok := signalOf(ps); ok {
		return 128 + sig
	}
	return 1
}

// Describe says how the process ended, as a clause ("it exited with
// status 0"), naming the steps Stop had to take.
func (p *Process) Describe() string {
	select {
	case <-p.exited:
	default:
		return "it is still running"
	}
	switch p.ending {
	case Terminated:
		return fmt.Sprintf("it did not exit within %v of its stdin closing and was ended with SIGTERM", p.grace)
	case Killed:
		return fmt.Sprintf("it did not exit within %v of its stdin closing nor of SIGTERM, and was killed", p.grace)
	}
	var ee *exec.ExitError
	if sig, ok := signalOf(p.cmd.ProcessState); ok {
		return fmt.Sprintf("it was ended by signal %d", sig)
	}
	switch {
	case p.waitErr == nil:
		return "it exited with status 0"
	case errors.As(p.waitErr, &ee) && ee.Exited():
		return fmt.Sprintf("it exited with status %d", ee.ExitCode())
	}
	return "it ended: " + p.waitErr.Error()
}
