# Agora — `make dev` runs the product, `make test` runs every test.
# `make help` lists the targets.

GO ?= go
NPM ?= npm
BIN := bin/agora

# make dev ADDR=127.0.0.1:9090 DATA=/tmp/agora → agora dev --addr … --data …
ADDR ?=
DATA ?=
DEV_FLAGS := $(if $(ADDR),--addr $(ADDR)) $(if $(DATA),--data $(DATA))

# Extra flags for go test, e.g. make test TESTFLAGS='-v -run TestSignIn'.
TESTFLAGS ?=

.DEFAULT_GOAL := help
.PHONY: help deps web build dev test lint gen bench clean

help: ## list the targets
	@echo "Agora make targets:"
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  %-7s %s\n", $$1, $$2}' $(MAKEFILE_LIST)
	@echo "Variables: GO=$(GO) ADDR=<host:port> DATA=<dir> (for dev), TESTFLAGS=<go test flags>"

deps: ## install what is missing (PostgreSQL server, C compiler for -race…)
	@bash scripts/install-deps.sh

# The web app is built first so the binary can embed web/dist. Until web/
# has a package.json there is nothing to build and the step is skipped.
web: ## build the React app into web/dist (skipped while web/package.json is absent)
	@if [ ! -f web/package.json ]; then \
		echo "web: no web/package.json yet, skipping the web build"; \
	else \
		command -v $(NPM) >/dev/null 2>&1 || { echo "web: $(NPM) not found: install Node.js 20 and npm (apt-get install -y nodejs npm)" >&2; exit 1; }; \
		if [ -f web/package-lock.json ]; then \
			echo "web: npm ci"; $(NPM) --prefix web ci --no-audit --no-fund; \
		else \
			echo "web: npm install (no package-lock.json)"; $(NPM) --prefix web install --no-audit --no-fund; \
		fi && \
		echo "web: npm run build" && $(NPM) --prefix web run build; \
	fi

build: web ## build bin/agora (with the web app when it exists)
	$(GO) build -o $(BIN) ./cmd/agora

dev: deps build ## run everything locally on http://127.0.0.1:8080 with demo data
	./$(BIN) dev $(DEV_FLAGS)

# Later issues that add web tests hook them in here, after the Go tests.
test: deps ## go vet, then every Go test with -race
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 25m $(TESTFLAGS) ./...

# gofmt checks every Go file but those of dependencies and state; jet's
# generated models are gofmt-clean, so they are checked too.
lint: ## go vet and a gofmt check
	$(GO) vet ./...
	@unformatted="$$(find . -name '*.go' -not -path './.git/*' -not -path './var/*' -not -path './bin/*' \
		-not -path '*/node_modules/*' -not -path '*/testdata/*' -print0 | xargs -0 -r gofmt -l)" || { echo "gofmt: could not parse the files above" >&2; exit 1; }; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files need formatting (run gofmt -w):"; echo "$$unformatted"; exit 1; \
	fi; echo "gofmt: ok"

gen: deps ## regenerate the jet models in internal/db/gen from the migrations
	$(GO) run ./internal/db/jetgen/cmd

bench: deps ## run the benchmark program and print its figures
	$(GO) run ./internal/bench

clean: ## remove bin/ and var/ (the dev data, including its database)
	rm -rf bin var
