package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/internal/peer/proc"
)

// proxied is a server started by record or replay: its stdin and stdout
// are pipes of ours, its stderr is the command's own.
type proxied struct{ *proc.Process }

// startProxied starts argv with stderr passed to stderr.
func startProxied(argv []string, stderr io.Writer) (*proxied, error) {
	p, err := proc.Start(argv, proc.Options{Stderr: stderr, Grace: exitGrace})
	if err != nil {
		return nil, err
	}
	return &proxied{p}, nil
}

// stop ends the server as proc.Process.Stop does and closes its stdout;
// it returns once the process has been waited for.
func (p *proxied) stop() {
	p.Stop(context.Background())
	p.Stdout().Close()
}

// describe says how the server ended, for the transcript's last line.
func (p *proxied) describe() string {
	if st := p.Status(); st > 128 {
		return fmt.Sprintf("The server was ended by signal %d.", st-128)
	}
	return fmt.Sprintf("The server exited with status %d.", p.Status())
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
