package client

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Answer is how a server answered the server/discover probe.
type Answer int

// Answers to server/discover.
const (
	// NotSent: the Legacy era sends no probe.
	NotSent Answer = iota
	// Answered: a DiscoverResult.
	Answered
	// Refused: an error response.
	Refused
	// Silent: no answer within Options.DiscoverTimeout.
	Silent
	// Garbled: an answer that is not a DiscoverResult.
	Garbled
)

// String describes the answer.
func (a Answer) String() string {
	switch a {
	case NotSent:
		return "not sent"
	case Answered:
		return "a result"
	case Refused:
		return "an error"
	case Silent:
		return "no answer"
	case Garbled:
		return "an invalid answer"
	}
	return "unknown"
}

// Detection records how a session settled its era, for reports.
type Detection struct {
	// Era and Version are what was settled.
	Era     protocol.Era
	Version string
	// Discover is how the first server/discover was answered.
	Discover Answer
	// DiscoverError is the error it was answered with (Refused).
	DiscoverError *jsonrpc.Error
	// Invalid says what was wrong with the answer (Garbled).
	Invalid error
	// Waited is how long the probe waited for its answer.
	Waited time.Duration
	// Retried is the version server/discover was sent again with after
	// an unsupported-version error; empty when it was not.
	Retried string
	// Initialized reports that initialize was answered.
	Initialized bool
}

// String tells the story in one line, such as
//
//	server/discover got error -32601 (method not found) after 1ms; initialize answered 2025-11-25: legacy
func (d Detection) String() string {
	var parts []string
	if d.Discover != NotSent {
		parts = append(parts, "server/discover got "+probe{answer: d.Discover, rpcErr: d.DiscoverError, bad: d.Invalid}.describe()+
			" after "+d.Waited.Round(time.Millisecond).String())
	}
	if d.Retried != "" {
		parts = append(parts, "retried with "+clip.Quote(d.Retried))
	}
	if d.Initialized {
		parts = append(parts, "initialize answered "+clip.Quote(d.Version))
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(": %s %s", d.Era, clip.Quote(d.Version))
}

// describe says what a probe got.
func (p probe) describe() string {
	switch {
	case p.answer == Refused && p.rpcErr != nil:
		return fmt.Sprintf("error %d (%s)", p.rpcErr.Code, clip.String(p.rpcErr.Message))
	case p.answer == Garbled && p.bad != nil:
		return "an invalid answer (" + clip.String(p.bad.Error()) + ")"
	}
	return p.answer.String()
}
