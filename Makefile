# Herald: every target installs what it needs first, so each works on a fresh clone.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NODE_OK := $(shell node -e 'const [a,b]=process.versions.node.split(".").map(Number); \
  process.exit(a>20||(a===20&&b>=19)?0:1)' 2>/dev/null && echo yes)

.PHONY: help install sqlite build run test test-fast lint typecheck-server typecheck-dashboard format generate bench \
  mock check-node media-tools dashboard docs image image-tools image-test

help:
	@echo "make build     compile the TypeScript into dist/ for bin/herald (when a source changed)"
	@echo "make run       install what is missing, then serve Herald on SQLite with sandbox networks"
	@echo "make test      install what is missing, run every test (SQLite, PostgreSQL), then REST suites through Prism"
	@echo "make test-fast  the quick loop while changing code: the rules and the API on SQLite alone (FAST_TESTS)"
	@echo "make mock      serve a Prism mock of the contract at http://127.0.0.1:4010/v1 (MOCK_PORT to change it)"
	@echo "make lint      contract lint, generated files up to date, Biome format and lint, line width, type-check"
	@echo "make format    format the whole tree with Biome (biome.jsonc)"
	@echo "make generate  regenerate generated/ from openapi.yaml, and docs/guides/configuration.md from runtime/config.ts"
	@echo "make docs      build the guides (docs/site/) and the API reference (docs/reference.html) when stale"
	@echo "make bench     run the benchmarks in bench/"
	@echo "make image     build the container image (Containerfile) with buildah, as localhost/herald:latest"
	@echo "make image-test  build it, then run it by chroot against local PostgreSQL and walk the quick start"

check-node:
	@if [ "$(NODE_OK)" != "yes" ]; then \
	  echo "Herald needs Node.js 20.19 or later (found $$(node --version 2>/dev/null || echo none))." >&2; exit 1; fi

# The packages, with the install scripts of all but better-sqlite3, which compiles SQLite from source where its prebuilt
# binary cannot be downloaded (a minute or two of one core): that is its own step, which the lint does not need, so
# that `.ci/run` runs it beside `make lint`.
INSTALL_SCRIPTS := node -p "Object.entries(require('./package-lock.json').packages) \
  .filter(([path, entry]) => entry.hasInstallScript && !path.endsWith('/better-sqlite3')) \
  .map(([path]) => path.replace(/^.*node_modules\//, '')).join(' ')"
node_modules/.installed: package.json package-lock.json | check-node
	npm ci --no-audit --no-fund --ignore-scripts
	npm rebuild $$($(INSTALL_SCRIPTS))
	@touch $@

node_modules/.sqlite-built: node_modules/.installed
	npm rebuild better-sqlite3
	@touch $@

sqlite: node_modules/.sqlite-built

# Media processing runs ffprobe and ffmpeg: Debian's package when they are missing (needs root and apt).
media-tools:
	@command -v ffprobe >/dev/null && command -v ffmpeg >/dev/null || \
	  (apt-get update && apt-get install -y --no-install-recommends ffmpeg) || \
	  { echo "Herald needs ffmpeg and ffprobe on PATH: install your system's ffmpeg package." >&2; exit 1; }

install: node_modules/.sqlite-built media-tools

# dist/ (never committed): bin/herald runs it while it is fresher than every source it was compiled from.
build: node_modules/.installed
	@node scripts/build.mjs

# The dashboard, built to static files that the server serves at /app; rebuilt when its sources (or the
# network rules and contract types it reads) change.
DASHBOARD_SOURCES := $(shell find dashboard/src networks domain/textUnits.ts domain/when.ts domain/postingQueue.ts \
  domain/approvals.ts generated/api.d.ts \
  -type f -name '*.*' 2>/dev/null) \
  dashboard/index.html dashboard/vite.config.ts dashboard/networkText.ts dashboard/precompress.ts
dashboard/dist/index.html: node_modules/.installed $(DASHBOARD_SOURCES)
	npx vite build dashboard --logLevel warn

dashboard: dashboard/dist/index.html

# The API reference served at /docs/reference: one self-contained HTML file (works offline), rebuilt when the
# contract changes. Not committed: it is 2.6 MB of output that every contract edit would rewrite.
docs/reference.html: openapi.yaml redocly.yaml | node_modules/.installed
	npx redocly build-docs openapi.yaml --inlineBundle --title "Herald API reference" -o $@

# The guides at /docs: static pages rendered from docs/guides/*.md and the change log (not committed either).
DOCS_SOURCES := $(wildcard docs/guides/* docs/guides/networks/*) docs/CHANGELOG.md scripts/buildDocs.ts \
  scripts/docsPages.ts \
  generated/openapi.json
docs/site/index.html: $(DOCS_SOURCES) | node_modules/.installed
	npx tsx scripts/buildDocs.ts

docs: docs/reference.html docs/site/index.html

run: install build dashboard docs
	bin/herald serve

generate: node_modules/.installed
	npx tsx scripts/generate.ts

lint: node_modules/.installed
	npx redocly lint openapi.yaml auth.yaml
	npx tsx scripts/generate.ts --check
	npx biome ci .
	npx tsx scripts/lineWidth.ts
	$(MAKE) --no-print-directory -j2 --output-sync=target typecheck-server typecheck-dashboard
	npx tsc --noEmit -p mcp/stdio

# The two long type-checks (about 20 s of one core each), which `make lint` runs side by side.
typecheck-server:
	npx tsc --noEmit
typecheck-dashboard:
	npx tsc --noEmit -p dashboard

# Twice: on a few member chains Biome 2.6 settles only on its second pass, and `biome ci` checks the settled form.
format: node_modules/.installed
	npx biome format --write .
	npx biome format --write .

# The suites of the REST surface and of the session-only /auth routes, run once more through `prism proxy`
# (test/support/prismProxy.ts). planChecks and timeZones repeat the plan answers posts.test.ts already sends through it.
PRISM_SUITES := test/prism.test.ts test/posts.test.ts test/folders.test.ts test/accountsAndGroups.test.ts \
  test/mediaLibrary.test.ts test/mediaAccess.test.ts test/identity.test.ts test/session.test.ts test/events.test.ts \
  test/webhooks.test.ts test/webhookDelivery.test.ts test/tiktokPlans.test.ts test/members.test.ts test/keys.test.ts \
  test/settings.test.ts test/approvals.test.ts
MOCK_PORT ?= 4010

test: install build dashboard docs
	npx vitest run
	TEST_PRISM=1 TEST_DATABASES=sqlite npx vitest run $(PRISM_SUITES)

# The fast tier: the rules (pure functions) and the API (handlers through supertest or the MCP client, on an app the
# test file starts in its own process), on SQLite alone. A file is named here only when it starts no process, browser,
# network connector or simulator of its own, does not read the whole source, and takes seconds; every other file,
# a new one included, runs in `make test` alone. test/rules/ holds pure functions only, so it is named whole.
FAST_TESTS := test/rules/ test/postStates.test.ts test/textLimits.test.ts test/publicAddress.test.ts \
  test/publicUrl.test.ts test/accountHealth.test.ts test/accountsAndGroups.test.ts test/approvals.test.ts \
  test/badInput.test.ts test/clock.test.ts test/connect.test.ts test/credentials.test.ts \
  test/dashboardSessions.test.ts test/eventStream.test.ts test/events.test.ts test/folders.test.ts \
  test/freePlan.test.ts test/freezes.test.ts test/idempotency.test.ts test/identity.test.ts test/isolation.test.ts \
  test/keys.test.ts test/mcp.test.ts test/mcpBatches.test.ts test/mcpOAuth.test.ts test/mcpProtocolParams.test.ts \
  test/mediaAccess.test.ts test/mediaLibrary.test.ts test/members.test.ts test/passwords.test.ts \
  test/planChecks.test.ts test/postingQueue.test.ts test/posts.test.ts test/rateLimit.test.ts test/roles.test.ts \
  test/server.test.ts test/session.test.ts test/settings.test.ts test/signInServers.test.ts \
  test/signUpPolicy.test.ts test/tiktokPlans.test.ts test/timeZones.test.ts test/usage.test.ts \
  test/webhooks.test.ts test/webhookDelivery.test.ts

test-fast: install
	TEST_DATABASES=sqlite npx vitest run $(FAST_TESTS)

mock: node_modules/.installed
	npx tsx scripts/prism.ts mock $(MOCK_PORT)

# The leak check takes ten minutes and is left out: BENCH_SOAK_MINUTES=10 npx tsx bench/soak.ts
bench: install build dashboard
	npx tsx bench/startup.ts
	npx tsx bench/api.ts
	npx tsx bench/plan.ts
	npx tsx bench/upload.ts
	npx tsx bench/publish.ts
	npx tsx bench/webhooks.ts
	npx tsx bench/crash.ts
	npx tsx bench/mcp.ts
	npx tsx bench/scale.ts
	npx tsx bench/calendar.ts

# The container image, with Debian's buildah (installed when missing), and its test: containers cannot be started on
# the machines this is developed on, so the test mounts the image and runs it by chroot (test/image/). Root only;
# not part of `make test` (a first build takes several minutes).
image-tools:
	@(for tool in buildah mmdebstrap podman podman-compose; do command -v $$tool >/dev/null || exit 1; done) || \
	  (apt-get update && apt-get install -y --no-install-recommends buildah mmdebstrap podman podman-compose)

image: image-tools
	scripts/image/build.sh

image-test: image install
	npx vitest run --config test/image/vitest.config.ts
