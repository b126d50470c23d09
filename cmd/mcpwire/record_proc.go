package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// proxied is a server started by record or replay: its stdin and stdout
// are pipes of ours, its stderr is the command's own.
type proxied struct {
	cmd    *exec.Cmd
	in     *os.File      // the server's stdin, our end
	out    *os.File      // the server's stdout, our end
	exited chan struct{} // closed once the process has been waited for
}

// startProxied starts argv with stderr passed to stderr (see startPiped).
func startProxied(argv []string, stderr io.Writer) (*proxied, error) {
	p := &proxied{cmd: exec.Command(argv[0], argv[1:]...), exited: make(chan struct{})}
	p.cmd.Stderr = stderr
	in, out, err := startPiped(p.cmd)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	p.in, p.out = in, out
	go func() {
		p.cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// stop closes the server's stdin, gives it exitGrace to exit, then kills
// its process group; it returns once the process has been waited for.
func (p *proxied) stop() {
	p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(exitGrace):
		kill(p.cmd)
		<-p.exited
	}
	p.out.Close()
}

// status is the exit status a shell would report for the ended server:
// its exit code, or 128 plus the signal that ended it.
func (p *proxied) status() int {
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

// describe says how the server ended, for the transcript's last line.
func (p *proxied) describe() string {
	if sig, ok := signalOf(p.cmd.ProcessState); ok {
		return fmt.Sprintf("The server was ended by signal %d.", sig)
	}
	return fmt.Sprintf("The server exited with status %d.", p.status())
}

// relay copies src to dst as it reads, chunk by chunk: nothing waits for
// a line's end, and each write reaches dst (our stdout is unbuffered) as
// soon as it was read. Every complete line is handed to line, without its
// newline, before the chunk that completes it is written, so that the
// transcript has a request before the server can answer it and a response
// before the host can act on it; a last line without a newline is handed
// over at the end. A write error stops the writing, not the recording:
// what the server says is still recorded and drained.
func relay(dst io.Writer, src io.Reader, line func(string)) error {
	buf := make([]byte, 64<<10)
	var part []byte
	var werr error
	for {
		n, err := src.Read(buf)
		chunk := buf[:n]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				part = append(part, chunk...)
				break
			}
			line(string(append(part, chunk[:i]...)))
			part, chunk = part[:0], chunk[i+1:]
		}
		if n > 0 && werr == nil {
			_, werr = dst.Write(buf[:n])
		}
		if err != nil {
			if len(part) > 0 {
				line(string(part))
			}
			if errors.Is(err, io.EOF) {
				return werr
			}
			return err
		}
	}
}
