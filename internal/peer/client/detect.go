package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// codePreReleaseUnsupportedVersion is the number -32022 had in 2026
// pre-releases; early SDKs may still send it.
const codePreReleaseUnsupportedVersion = -32004

// probe is the outcome of one server/discover.
type probe struct {
	answer Answer
	result *protocol.DiscoverResult
	rpcErr *jsonrpc.Error
	bad    error // why the answer is Garbled
	waited time.Duration
}

// discover sends server/discover offering version, bounded by ctx and,
// when bound > 0, by bound: running out of bound is Silent, while the end
// of ctx or of the connection is an error.
func (s *Session) discover(ctx context.Context, version string, bound time.Duration) (probe, error) {
	pctx, cancel := ctx, context.CancelFunc(func() {})
	if bound > 0 {
		pctx, cancel = context.WithTimeout(ctx, bound)
	}
	defer cancel()
	params, err := json.Marshal(map[string]any{"_meta": s.metaFor(version)})
	if err != nil {
		return probe{}, err
	}
	start := time.Now()
	resp, err := s.roundTrip(pctx, protocol.MethodDiscover, params, false)
	p := probe{waited: time.Since(start)}
	switch {
	case err == nil:
	case errors.Is(err, ErrBadAnswer):
		p.answer, p.bad = Garbled, err
		return p, nil
	case ctx.Err() != nil || pctx.Err() == nil:
		return p, fmt.Errorf("client: detecting the era: %w", err)
	default:
		p.answer = Silent
		return p, nil
	}
	if resp.Error != nil {
		p.answer, p.rpcErr = Refused, resp.Error
		return p, nil
	}
	var r protocol.DiscoverResult
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		p.answer, p.bad = Garbled, err
		return p, nil
	}
	if r.SupportedVersions == nil {
		p.answer, p.bad = Garbled, errors.New("the result has no supportedVersions")
		return p, nil
	}
	p.answer, p.result = Answered, &r
	return p, nil
}

// detect settles the era as hosts do (see the package doc).
func (s *Session) detect(ctx context.Context, legacyV, modernV string) error {
	p, err := s.discover(ctx, modernV, s.opts.DiscoverTimeout)
	if err != nil {
		return err
	}
	d := &s.detection
	d.Discover, d.DiscoverError, d.Invalid, d.Waited = p.answer, p.rpcErr, p.bad, p.waited
	switch p.answer {
	case Answered:
		if v, ok := pickModern(p.result.SupportedVersions, modernV); ok {
			s.becomeModern(v, p.result)
			return nil
		}
		return s.initialize(ctx, pickLegacy(p.result.SupportedVersions, legacyV))
	case Refused:
		if supported, ok := unsupported(p.rpcErr); ok {
			return s.retry(ctx, supported, legacyV)
		}
	}
	return s.initialize(ctx, legacyV)
}

// retry follows an unsupported-version error: server/discover again with a
// modern version the server listed, or initialize with a legacy one.
func (s *Session) retry(ctx context.Context, supported []string, legacyV string) error {
	v, ok := pickModern(supported, "")
	if !ok {
		if len(supported) == 0 {
			return fmt.Errorf("client: server/discover was refused as an unsupported version, and no version was listed: %w", s.detection.DiscoverError)
		}
		return s.initialize(ctx, pickLegacy(supported, legacyV))
	}
	s.detection.Retried = v
	p, err := s.discover(ctx, v, 0)
	if err != nil {
		return err
	}
	if p.answer != Answered {
		return fmt.Errorf("client: server/discover with %s, a version the server listed, got %s", clip.Quote(v), p.describe())
	}
	s.becomeModern(v, p.result)
	return nil
}

// discoverModern is the handshake of the Modern era: server/discover must
// be answered with a result.
func (s *Session) discoverModern(ctx context.Context, modernV string) error {
	p, err := s.discover(ctx, modernV, 0)
	if err != nil {
		return err
	}
	d := &s.detection
	d.Discover, d.DiscoverError, d.Invalid, d.Waited = p.answer, p.rpcErr, p.bad, p.waited
	if p.answer != Answered {
		if p.rpcErr != nil {
			return fmt.Errorf("client: server/discover: %w", p.rpcErr)
		}
		return fmt.Errorf("%w: server/discover got %s", ErrBadAnswer, p.describe())
	}
	s.becomeModern(modernV, p.result)
	return nil
}

// becomeModern settles the modern era with version.
func (s *Session) becomeModern(version string, r *protocol.DiscoverResult) {
	s.era, s.revision = protocol.Modern, version
	s.meta = s.metaFor(version)
	s.bareMeta = nil
	s.bareMeta = s.withMeta(nil)
	s.capabilities, s.instructions = r.Capabilities, r.Instructions
	if r.Meta != nil && r.Meta.ServerInfo != nil {
		s.serverInfo = *r.Meta.ServerInfo
	}
	s.detection.Era, s.detection.Version = protocol.Modern, version
	s.modern.Store(true)
}

// initialize is the legacy handshake: initialize, then
// notifications/initialized. It is never cancelled (the spec forbids it):
// ctx only bounds the wait.
func (s *Session) initialize(ctx context.Context, version string) error {
	caps, err := json.Marshal(s.opts.Capabilities)
	if err != nil {
		return fmt.Errorf("client: capabilities: %w", err)
	}
	info, err := json.Marshal(s.opts.ClientInfo)
	if err != nil {
		return fmt.Errorf("client: client info: %w", err)
	}
	params, err := json.Marshal(protocol.InitializeRequestParams{ProtocolVersion: version, Capabilities: caps, ClientInfo: info})
	if err != nil {
		return err
	}
	resp, err := s.roundTrip(ctx, protocol.MethodInitialize, params, false)
	if err != nil {
		return err
	}
	if resp.Error != nil {
		return fmt.Errorf("client: initialize: %w", resp.Error)
	}
	var r protocol.InitializeResult
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		return fmt.Errorf("%w: initialize: %v", ErrBadAnswer, err)
	}
	if r.ProtocolVersion == "" {
		return fmt.Errorf("%w: initialize: the result has no protocolVersion", ErrBadAnswer)
	}
	s.era, s.revision = protocol.Legacy, r.ProtocolVersion
	s.serverInfo, s.capabilities, s.instructions = r.ServerInfo, r.Capabilities, r.Instructions
	s.detection.Era, s.detection.Version, s.detection.Initialized = protocol.Legacy, r.ProtocolVersion, true
	if err := s.conn.Write(ctx, &jsonrpc.Notification{Method: protocol.NotificationReady}); err != nil {
		return fmt.Errorf("client: sending %s: %w", protocol.NotificationReady, s.writeError(err))
	}
	return nil
}

// unsupported reads an unsupported-version error's data.supported: -32022
// always counts (a modern error: no fallback to initialize), -32004 only
// with a readable list.
func unsupported(e *jsonrpc.Error) ([]string, bool) {
	var data protocol.UnsupportedProtocolVersionData
	readable := json.Unmarshal(e.Data, &data) == nil && data.Supported != nil
	switch e.Code {
	case jsonrpc.CodeUnsupportedProtocolVersion:
		return data.Supported, true
	case codePreReleaseUnsupportedVersion:
		return data.Supported, readable
	}
	return nil, false
}

// pickModern returns preferred when versions lists it (or lists nothing),
// else the first modern version listed.
func pickModern(versions []string, preferred string) (string, bool) {
	if len(versions) == 0 && preferred != "" {
		return preferred, true
	}
	for _, v := range versions {
		if v == preferred && v != "" {
			return v, true
		}
	}
	for _, v := range versions {
		if protocol.EraOfVersion(v) == protocol.Modern {
			return v, true
		}
	}
	return "", false
}

// pickLegacy returns preferred when versions lists it, else the first
// legacy version listed (preferred when there is none).
func pickLegacy(versions []string, preferred string) string {
	first := ""
	for _, v := range versions {
		if v == preferred {
			return v
		}
		if first == "" && protocol.EraOfVersion(v) == protocol.Legacy {
			first = v
		}
	}
	if first == "" {
		return preferred
	}
	return first
}
