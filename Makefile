# Herald: every target installs what it needs first, so each works on a fresh clone.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NODE_OK := $(shell node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)' 2>/dev/null && echo yes)

.PHONY: help install run test lint generate bench check-node media-tools docs

help:
	@echo "make run       install what is missing, then serve Herald on SQLite with sandbox networks"
	@echo "make test      install what is missing, then run every test (SQLite and PostgreSQL)"
	@echo "make lint      contract lint, generated/ freshness, TypeScript type-check"
	@echo "make generate  regenerate generated/ from openapi.yaml"
	@echo "make docs      build the API reference (docs/reference.html) from openapi.yaml when it is stale"
	@echo "make bench     run the benchmarks in bench/"

check-node:
	@if [ "$(NODE_OK)" != "yes" ]; then echo "Herald needs Node.js 20.19 or later (found $$(node --version 2>/dev/null || echo none))." >&2; exit 1; fi

node_modules/.installed: package.json package-lock.json | check-node
	npm ci --no-audit --no-fund
	@touch $@

# Media processing runs ffprobe and ffmpeg: Debian's package when they are missing (needs root and apt).
media-tools:
	@command -v ffprobe >/dev/null && command -v ffmpeg >/dev/null || \
	  (apt-get update && apt-get install -y --no-install-recommends ffmpeg) || \
	  { echo "Herald needs ffmpeg and ffprobe on PATH: install your system's ffmpeg package." >&2; exit 1; }

install: node_modules/.installed media-tools

# The API reference served at /docs/reference: one self-contained HTML file (works offline), rebuilt when the
# contract changes. Not committed: it is 2.6 MB of output that every contract edit would rewrite.
docs/reference.html: openapi.yaml redocly.yaml | node_modules/.installed
	npx redocly build-docs openapi.yaml --inlineBundle --title "Herald API reference" -o $@

docs: docs/reference.html

run: install docs
	bin/herald serve

generate: install
	npx tsx scripts/generate.ts

lint: install
	npx redocly lint openapi.yaml
	npx tsx scripts/generate.ts --check
	npx tsc --noEmit

test: install docs
	npx vitest run

bench: install
	npx tsx bench/api.ts
	npx tsx bench/plan.ts
	npx tsx bench/upload.ts
	npx tsx bench/publish.ts
	npx tsx bench/crash.ts
	npx tsx bench/mcp.ts
