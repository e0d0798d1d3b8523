# mcp-codegen. `make` installs, fetches the pinned schemas, generates and builds; `make test` proves it.
.DEFAULT_GOAL := all
SHELL := bash

CLI := node --import tsx codegen/cli.ts
TSC := node node_modules/typescript/bin/tsc

.PHONY: all install spec generate build typecheck test bench clean

all: build

install: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

spec: install
	$(CLI) spec fetch

generate: spec
	$(CLI) generate

build: generate
	$(TSC) -p tsconfig.build.json

typecheck: generate
	$(TSC) -p tsconfig.json

test: build typecheck
	$(CLI) check
	node_modules/.bin/mocha

bench: build
	node --import tsx bench/run.ts

clean:
	rm -rf dist .tools generated/*/ generated/index.ts generated/.stamp.json spec/*/
