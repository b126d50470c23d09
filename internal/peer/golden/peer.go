package golden

import (
	"bufio"
	"errors"
	"io"
	"time"
)

// ErrTimeout is returned by Peer.ReadLine when no line came in time.
var ErrTimeout = errors.New("golden: timed out waiting for a server line")

// Peer is the server end as the harness sees it: lines in, lines out.
type Peer struct {
	in    io.WriteCloser
	lines chan string
	done  chan error // the read side's final error (nil at EOF)
}

// NewPeer starts reading server lines from out; lines written go to in.
func NewPeer(in io.WriteCloser, out io.Reader) *Peer {
	p := &Peer{in: in, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := br.ReadString('\n')
			if len(line) > 0 {
				p.lines <- line
			}
			if err != nil {
				close(p.lines)
				if errors.Is(err, io.EOF) {
					err = nil
				}
				p.done <- err
				return
			}
		}
	}()
	return p
}

// WriteLine sends one client line.
func (p *Peer) WriteLine(line string) error {
	_, err := io.WriteString(p.in, line+"\n")
	return err
}

// CloseInput closes the server's input.
func (p *Peer) CloseInput() error { return p.in.Close() }

// ReadLine returns the next server line with its newline, io.EOF when the
// server's output ended, or ErrTimeout.
func (p *Peer) ReadLine(timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case line, ok := <-p.lines:
		if !ok {
			return "", io.EOF
		}
		return line, nil
	case <-t.C:
		return "", ErrTimeout
	}
}
