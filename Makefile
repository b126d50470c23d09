# mcpwire: the two commands a newcomer needs are `make demo` and `make test`.
GO ?= go

.PHONY: test unit interop conformance deploy demo demo-all bench bench-scale fuzz vet hosts

# The modules beside the main one: the contract server (it links the Redis
# fan-out) and the optional integrations, each with its own go.mod.
MODULES = cmd/everything jwtauth otelmcp redisbroker

# test runs every test with the race detector (after vet and a gofmt
# check), then the interop suite against real MCP clients, then the
# official conformance suites over Streamable HTTP, then the deployment of
# three instances behind nginx with Redis.
test: unit interop conformance deploy

# unit checks the allocation budgets once more without the race detector,
# which allocates for itself.
unit: vet
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -run 'Allocations$$' ./mcp
	for m in $(MODULES); do (cd $$m && $(GO) vet ./... && $(GO) test -race -count=1 ./...) || exit 1; done
	cd interop/go && $(GO) vet ./... && $(GO) test -race -count=1 ./...
	cd bench/sdkservers && $(GO) vet ./...

# interop drives the built cmd/everything with the go-sdk, mcp-go and
# TypeScript SDK clients in every mode (strict: nothing may be skipped).
interop:
	bash interop/run.sh -strict

# conformance runs the official MCP conformance suites (0.1.16, and
# 0.2.0-alpha.12 for 2025-11-25 and 2026-07-28) against the built
# cmd/everything over Streamable HTTP, then again through mcpwire gateway
# in front of it (RESULTS-gateway.md), then both suites' client scenarios
# against the built cmd/everything-client, writes conformance/RESULTS.md
# and fails when a scenario of conformance/baseline.txt or
# conformance/baseline-client.txt does not pass.
conformance:
	bash conformance/run.sh
	CONFORMANCE_GATEWAY=1 bash conformance/run.sh
	bash conformance/run-client.sh

# hosts installs the pinned host CLIs of interop/hosts (Claude Code and
# opencode, about 740 MB of native binaries) so that cmd/mcpwire's
# TestHosts records and replays their `mcp list`; it is not part of test.
# npm install --no-save, not npm ci: the lock file holds only the platform
# packages the registry served when it was written (see
# interop/hosts/README.md), and --no-save leaves it as it is.
hosts:
	cd interop/hosts && npm install --no-save --no-fund --no-audit

vet:
	@fmt=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$fmt" ]; then echo "gofmt needed: $$fmt"; exit 1; fi
	$(GO) vet ./...

# deploy starts redis-server, three cmd/everything -http instances and
# nginx on loopback ports and drives them (deploy/deploy_test.go; needs
# nginx and redis-server installed, as .ci/run does).
deploy:
	$(GO) test -tags deploy -count=1 -v -timeout 15m ./deploy

# demo builds cmd/everything and drives a scripted session over real pipes
# (about 60 lines: both eras, errors, progress, cancellation, a task).
demo:
	$(GO) run ./cmd/demo

# demo-all is the demo with every step: elicitation in both eras,
# resources, prompts and completion, and Streamable HTTP too.
demo-all:
	$(GO) run ./cmd/demo -all

# bench runs the Go benchmarks and the load driver side by side with the
# go-sdk and mcp-go servers, over stdio and over Streamable HTTP (see
# BENCHMARKS.md).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./jsonrpc ./mcp ./tool ./internal/contract ./internal/natural ./schema ./probe
	bash bench/run.sh
	ERAS="modern legacy" bash bench/run-http.sh -n 10000

# bench-scale runs the soak (a million sequential and a million pipelined
# calls, RSS sampled every 100,000) and 10,000 slow calls on one
# connection (see BENCHMARKS.md, round 2).
bench-scale:
	bash bench/run-scale.sh

# fuzz runs every fuzz target of the repository (decoders, framing,
# the HTTP handler's POSTs, state sealing, ...) for FUZZTIME each (default
# 20s), inputs minimised in one run each; a target that fails or stalls
# fails the run (scripts/fuzz.sh).
FUZZTIME ?= 20s
fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh
