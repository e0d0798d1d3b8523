# mcp-codegen. `make` installs, fetches the pinned schemas, generates and builds; `make test` proves it.
.DEFAULT_GOAL := all
SHELL := bash

CLI := node --import tsx codegen/cli.ts
TSC := node node_modules/typescript/bin/tsc

.PHONY: all install tools redis spec generate build pack api-report install-size typecheck docs conformance runtimes test tests clean-tree mocha bench clean

all: build

install: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# Test-only tools, each folder with its own lock file, kept out of the root package.json:
# the official conformance suites and a Node 22 binary (tools/conformance), the MCP Inspector (tools/inspector),
# the interop peers: SDK v2, server-everything, the AI SDK's MCP client (tools/interop); SDK v2 and public MCP servers for bench/ and the stdio progress test (tools/bench-peers).
# Bun, Deno and workerd from the npm registry (tools/runtimes).
tools: tools/conformance/node_modules/.package-lock.json tools/inspector/node_modules/.package-lock.json tools/interop/node_modules/.package-lock.json tools/bench-peers/node_modules/.package-lock.json tools/runtimes/node_modules/.package-lock.json

# Each lock holds every platform's optional packages (npm 11 writes them all), so `npm ci` installs
# exactly it with npm 10 and 11. Install scripts run only where the folder's package.json
# `allowScripts` approves them (npm 11; written by `npm install-scripts approve`).
tools/%/node_modules/.package-lock.json: tools/%/package.json tools/%/package-lock.json
	cd tools/$* && npm ci --no-audit --no-fund
	@touch $@

# The Redis tests start their own redis-server: the one on PATH, else Debian's package (as root), else a clear failure.
redis:
	tools/redis/ensure-redis-server.sh

# The closures renderer's pool of templates, written before anything loads the runtime (packages/closure-pool.ts).
POOL := runtime/json-schema/render/pool.ts
$(POOL): packages/closure-pool.ts | install
	node --import tsx packages/closure-pool.ts

spec: install $(POOL)
	$(CLI) spec fetch

generate: spec
	$(CLI) generate

build: generate
	$(TSC) -p tsconfig.build.json

# The two published packages, @mcp-codegen/runtime and mcp-codegen, staged from dist/ into pack/*.tgz (packages/pack.ts).
pack: build
	node --import tsx packages/pack.ts

# The public API reports (packages/runtime/api/*.api.md) rewritten from this build: review the diff, commit it.
api-report: pack
	node --import tsx packages/api-report.ts --update

typecheck: generate
	$(TSC) -p tsconfig.json

# The API reference of @mcp-codegen/runtime's entry points, from their TSDoc (TypeDoc, typedoc.json),
# into api-docs/ (git-ignored). Warnings are errors: an undocumented export, or a {@link} that
# resolves to nothing, fails it.
docs: generate
	node node_modules/typedoc/bin/typedoc

# The official MCP conformance suites against examples/conformance-server over Streamable HTTP,
# then their client scenarios (authorization aside) against McpClient, whose harnesses `build` compiles.
conformance: build tools
	node tools/conformance/run.mjs
	node tools/conformance/run-client.mjs
	node tools/conformance/auth/run.mjs

# The official conformance server suites through fetchHandler on Bun, Deno and workerd.
runtimes: generate tools
	node tools/runtimes/run.mjs

# `make test` runs its steps side by side on three jobs: the set-up (npm installs, tsc builds),
# then the mocha suite (itself on two workers, .mocharc.json) beside the conformance suites and
# the runtimes. Each step's output is printed whole when it ends, so the log reads in order.
TEST_JOBS ?= 3
test:
	@$(TREE_STATE) > $(TREE_BEFORE)
	@$(MAKE) --no-print-directory --jobs=$(TEST_JOBS) --output-sync=target tests
	@$(MAKE) --no-print-directory clean-tree

# A build or a test that changes a tracked file, or leaves one git does not ignore, fails the run:
# a lock file npm rewrote must be committed, anything else is a bug in the step that wrote it.
# Compared with the tree as `make test` found it, so a checkout with work in progress can run it.
TREE_STATE = { git status --porcelain --untracked-files=all; git diff HEAD | git hash-object --stdin; }
TREE_BEFORE = $(shell git rev-parse --git-dir)/make-test-tree-before
clean-tree:
	@before="$$(cat $(TREE_BEFORE) 2>/dev/null || git hash-object --stdin </dev/null)"; after="$$($(TREE_STATE))"; \
	if [ "$$before" != "$$after" ]; then \
	  echo "make test changed the work tree (git status --porcelain, then the hash of git diff HEAD):"; \
	  diff <(echo "$$before") <(echo "$$after"); \
	  echo "Commit what a build should have written (a lock file npm rewrote), or fix the step that wrote it; 'git status' and 'git diff' show the change."; \
	  exit 1; \
	fi

tests: mocha conformance runtimes install-size docs

# What a runtime-only install weighs, ours against the SDK v2 server, printed in the CI log (reported, not asserted).
install-size: pack
	node --import tsx bench/install-size.ts

mocha: pack typecheck tools redis
	$(CLI) check
	node_modules/.bin/mocha

# Every bench/*.ts, one after the other; their figures go to bench/results/latest.json (git-ignored).
# `node --import tsx bench/report.ts --release` publishes a run: bench/results/release.json and docs/benchmarks.md.
bench: pack tools
	node --import tsx bench/run.ts

# Everything `make` produced; generated/README.md and spec/pinned.json stay.
clean:
	rm -rf dist pack api-docs spec/*/ $(POOL)
	find generated -mindepth 1 ! -name README.md -exec rm -rf {} +
