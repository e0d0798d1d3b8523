# mcp-codegen. `make` installs, fetches the pinned schemas, generates and builds; `make test` proves it.
.DEFAULT_GOAL := all
SHELL := bash

CLI := node --import tsx codegen/cli.ts
TSC := node node_modules/typescript/bin/tsc

.PHONY: all install tools spec generate build typecheck conformance test bench clean

all: build

install: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# Test-only tools, each folder with its own lock file, kept out of the root package.json:
# the official conformance suites and a Node 22 binary (tools/conformance), the MCP Inspector (tools/inspector),
# SDK v2 for bench/ and the stdio progress test (tools/bench-peers).
tools: tools/conformance/node_modules/.package-lock.json tools/inspector/node_modules/.package-lock.json tools/bench-peers/node_modules/.package-lock.json

tools/%/node_modules/.package-lock.json: tools/%/package.json tools/%/package-lock.json
	cd tools/$* && npm ci --no-audit --no-fund
	@touch $@

spec: install
	$(CLI) spec fetch

generate: spec
	$(CLI) generate

build: generate
	$(TSC) -p tsconfig.build.json

typecheck: generate
	$(TSC) -p tsconfig.json

# The official MCP conformance suites against examples/conformance-server over Streamable HTTP.
conformance: generate tools
	node tools/conformance/run.mjs

test: build typecheck tools conformance
	$(CLI) check
	node_modules/.bin/mocha

bench: build tools
	node --import tsx bench/run.ts

# Everything `make` produced; generated/README.md and spec/pinned.json stay.
clean:
	rm -rf dist spec/*/
	find generated -mindepth 1 ! -name README.md -exec rm -rf {} +
