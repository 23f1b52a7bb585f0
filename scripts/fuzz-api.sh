#!/usr/bin/env bash
# fuzz-api.sh — fuzz the HTTP API against its own OpenAPI document with
# schemathesis, a third-party fuzzer (PyPI), as each demo persona and
# without a session; make test runs it after the browser tests.
#
# It starts bin/agora dev (AGORA_BIN) on a fresh temporary data folder and a
# free loopback port, then runs schemathesis over every operation of
# /api/openapi.json once a persona, with three checks: no 5xx
# (not_a_server_error), every response's body as the document describes it
# (response_schema_conformance) and every status one the operation documents
# (status_code_conformance). It prints a line a persona and exits 1 when any
# check failed anywhere.
#
# Usage: scripts/fuzz-api.sh
#   AGORA_BIN            the binary to run (default bin/agora)
#   FUZZ_API_EXAMPLES    test cases the fuzzing phase generates an operation
#                        (default 5; the coverage phase's are its own)
#   FUZZ_API_SEED        the seed of a run to repeat (each run prints its own)
#   FUZZ_API_PERSONAS    the personas to run, in order (default: all, see below)
#   FUZZ_API_OPERATIONS  an operationId regex to fuzz only those (default: all)
#   FUZZ_API_KEEP        a folder to keep each persona's schemathesis report in
#                        (JUnit XML: every failure with the request that made it)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${AGORA_BIN:-$repo/bin/agora}
# The version is install-deps.sh's, which installs it (make test runs
# `install-deps.sh schemathesis` first).
version=$(sed -n 's/^SCHEMATHESIS_VERSION=//p' "$repo/scripts/install-deps.sh")
venv="${XDG_CACHE_HOME:-$HOME/.cache}/agora/schemathesis-$version"
st="$venv/bin/st"
examples=${FUZZ_API_EXAMPLES:-5}
operations=${FUZZ_API_OPERATIONS:-}

say() { echo "fuzz-api: $*"; }
die() { echo "fuzz-api: error: $*" >&2; exit 1; }

[ -x "$bin" ] || die "$bin not found: run make build first"
[ -x "$st" ] || die "schemathesis $version not installed: run scripts/install-deps.sh schemathesis"

# Personas from the least to the most powerful: a super user's or an admin's
# fuzzed writes (a deleted community, a renamed forum) come last, so they do
# not take away what the others' cases read. "anonymous" sends no session.
personas=${FUZZ_API_PERSONAS:-anonymous outsider member expert admin super}
password=${AGORA_DEMO_PASSWORD:-agora-demo}

work=$(mktemp -d "${TMPDIR:-/tmp}/agora-fuzz-api.XXXXXX")
data="$work/data"
mkdir "$data"
# agora dev runs postgres as the postgres user when root; mktemp's 0700 would
# keep it out of the data folder.
chmod 755 "$work" "$data"
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port"

server=
stop_server() {
	if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
		kill -INT "$server" 2>/dev/null || true
		for _ in $(seq 150); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$server" 2>/dev/null || true
		wait "$server" 2>/dev/null || true
	fi
	server=
}
cleanup() {
	stop_server
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "starting $bin dev on $url (data $data)"
# The sign-in limits are raised as for the browser tests: schemathesis signs
# in again after a fuzzed sign-out ends its session, and its own sign-in
# cases come from one address. Every other limit keeps its default, so
# their 429s are fuzzed too.
AGORA_LOG_LEVEL=warn \
	AGORA_SIGNIN_PER_IP_PER_MINUTE=100000 \
	AGORA_SIGNIN_PER_ACCOUNT_PER_MINUTE=100000 \
	"$bin" dev --addr "127.0.0.1:$port" --data "$data" >"$work/agora.log" 2>&1 &
server=$!
# The environment's Python asks, not curl, which a fresh Debian may lack.
ready='import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)'
for i in $(seq 240); do
	if ! kill -0 "$server" 2>/dev/null; then
		cat "$work/agora.log" >&2
		die "agora dev exited before it was ready (log above)"
	fi
	"$venv/bin/python" -c "$ready" "$url/readyz" 2>/dev/null && break
	[ "$i" -lt 240 ] || { cat "$work/agora.log" >&2; die "agora dev not ready after 120 s (log above)"; }
	sleep 0.5
done
say "agora dev ready"

# config PERSONA writes the schemathesis configuration of one persona: the
# checks, the bounds and, but for anonymous, a bearer token that
# schemathesis gets from POST /api/sessions and gets again when a fuzzed
# call (a sign-out) made it worthless (a 401).
config() {
	local persona=$1 file="$work/$1.toml"
	{
		# One worker: Python 3.11 (Debian 12's) builds ASTs unsafely across
		# threads (CPython gh-106905), which Hypothesis does while it
		# generates, and two workers failed runs with "AST constructor
		# recursion depth mismatch". Stateful runs are left out, and failures
		# are not shrunk, to keep a persona's run near a minute; a failure's
		# curl line and the seed (FUZZ_API_SEED) reproduce it.
		cat <<-EOF
			workers = 1
			continue-on-failure = true
			suppress-health-check = ["all"]

			[generation]
			max-examples = $examples
			no-shrink = true
			database = "none"

			# QUERY, a method still in draft, is one Fiber does not know: it
			# answers 501, as RFC 9110 says a server should (x-unmatched).
			[phases.coverage]
			unexpected-methods = ["get", "put", "post", "delete", "options", "patch", "trace"]

			[checks]
			enabled = false
			not_a_server_error.enabled = true
			response_schema_conformance.enabled = true
			status_code_conformance.enabled = true

			# No sign-up of a user of schemathesis' own: the anonymous run stays
			# without a session, and a persona's is the persona's.
			[auth]
			auto-signup = false
		EOF
		if [ "$persona" != anonymous ]; then
			cat <<-EOF

				[auth.dynamic.openapi.bearerAuth]
				path = "/api/sessions"
				payload = { email = "$persona@demo.agora", password = "$password" }
				extract_selector = "/accessToken"
			EOF
		fi
	} >"$file"
	echo "$file"
}

# summary REPORT prints how many operations the JUnit report has, and
# which of them failed.
summary() {
	"$venv/bin/python" - "$1" <<-'EOF'
		import sys, xml.etree.ElementTree as ET
		root = ET.parse(sys.argv[1]).getroot()
		ops = failed = 0
		names = []
		for c in root.iter("testcase"):
		    ops += 1
		    if c.find("failure") is not None or c.find("error") is not None:
		        failed += 1
		        names.append(c.get("name"))
		print(f"{ops} operations, {failed} with failures" + (": " + ", ".join(names) if names else ""))
	EOF
}

failed=()
lines=()
for persona in $personas; do
	case "$persona" in
	anonymous | outsider | member | expert | admin | super) ;;
	*) die "unknown persona '$persona' (anonymous, outsider, member, expert, admin or super)" ;;
	esac
	cfg=$(config "$persona")
	report="$work/$persona.xml"
	args=()
	[ -z "$operations" ] || args=(--include-operation-id-regex "$operations")
	[ -z "${FUZZ_API_SEED:-}" ] || args+=(--seed "$FUZZ_API_SEED")
	say "$persona: schemathesis $version over $url/api/openapi.json"
	started=$SECONDS
	status=0
	# From the work folder: schemathesis keeps a cache in the current one.
	(cd "$work" && "$st" --config-file "$cfg" --no-color run "$url/api/openapi.json" \
		--phases examples,coverage,fuzzing \
		--report junit --report-junit-path "$report" \
		"${args[@]}") >"$work/$persona.out" 2>&1 || status=$?
	# The whole output only when something failed: it names each failure
	# with a curl line that reproduces it.
	[ "$status" -eq 0 ] || cat "$work/$persona.out"
	seed=$(sed -n 's/^Seed: //p' "$work/$persona.out")
	if [ -f "$report" ]; then
		line="$persona: $(summary "$report") in $((SECONDS - started)) s (seed ${seed:-?})"
	else
		line="$persona: schemathesis ended ($status) without a report in $((SECONDS - started)) s"
	fi
	[ -z "${FUZZ_API_KEEP:-}" ] || { mkdir -p "$FUZZ_API_KEEP"; cp "$work/$persona.out" "$FUZZ_API_KEEP/"; [ ! -f "$report" ] || cp "$report" "$FUZZ_API_KEEP/"; }
	say "$line"
	lines+=("$line")
	[ "$status" -eq 0 ] || failed+=("$persona")
	if ! kill -0 "$server" 2>/dev/null; then
		code=0
		wait "$server" || code=$?
		server=
		cat "$work/agora.log" >&2
		die "agora dev ended ($code) during $persona's run (log above)"
	fi
done

say "summary"
for line in "${lines[@]}"; do say "  $line"; done
if [ "${#failed[@]}" -gt 0 ]; then
	die "schemathesis found failures as: ${failed[*]}"
fi
say "0 failures"
