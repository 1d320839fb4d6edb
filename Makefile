# The commands of the README's quick start:
#   make install  builds e2e and puts it on the PATH
#   make demo     runs the main job on a fresh machine
#   make test     runs the whole test suite (what CI runs)
# All three install Debian's chromium first when it is missing; the tests also need
# xmllint (libxml2-utils) to check JUnit files against docs/schema/junit.xsd,
# and a PostgreSQL server (Debian's postgresql) for the shared store's tests,
# which start and remove their own throwaway clusters.

GO ?= go
BIN ?= bin/e2e
# Where make install puts e2e; empty: /usr/local/bin when this user may
# write there (as root, or via passwordless sudo), else ~/.local/bin
# (scripts/install-e2e says when that is not on PATH yet).
BINDIR ?=

.PHONY: install demo test build bench bench-compare chromium xmllint postgres npm

chromium:
	@scripts/ensure-chromium

xmllint:
	@scripts/ensure-package xmllint libxml2-utils

postgres:
	@scripts/ensure-postgres

# From npm, into cache directories (no browser download): @playwright/test
# and typescript for the export tests (e2e export playwright), and the MCP
# Inspector for the e2e mcp tests.
npm:
	@scripts/ensure-npm
	@scripts/ensure-npm-mcp >/dev/null

build:
	$(GO) build -o $(BIN) ./cmd/e2e

install: chromium build
	@scripts/install-e2e $(BIN) $(BINDIR)

demo: chromium build
	$(BIN) demo

# go test starts packages in the order named: the longest first, so that
# none runs alone at the end on a machine the others no longer share.
TESTPKGS = ./session/run ./cmd/e2e ./session/browser ./mcp ./...

test: chromium xmllint postgres npm
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 45m $(TESTPKGS)

bench: chromium
	$(GO) test -run '^$$' -bench . -benchtime 20x -count 1 ./...

# The creep guard: the hot path's benchmarks at BASE and at the working
# tree, alternated ROUNDS times, each benchmark's median ratio new/old.
#   make bench-compare BASE=cc23680 [ROUNDS=5]
BASE ?= main
ROUNDS ?= 5
bench-compare: chromium
	@scripts/bench-compare $(BASE) $(ROUNDS)
