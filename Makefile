# A thin layer over meson. `make run` and `make test` each install what is missing, configure,
# build and go; both are safe to run again.
SHELL := /bin/bash
comma := ,
BUILD_RUN ?= build/release
BUILD_TEST ?= build/test
BUILD_FUZZ ?= build/fuzz
# ccache (which meson finds by itself) shares objects between clones in other folders: paths
# under the clone are hashed relative to it, and the build directory is not hashed.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
# ... and caches what is compiled with a precompiled header (meson's cpp_pch).
export CCACHE_SLOPPINESS := pch_defines,time_macros
MESON_SETUP = if [ -f $(1)/build.ninja ]; then meson setup --reconfigure $(1) $(2) >/dev/null; \
              else meson setup $(1) $(2); fi

.PHONY: all deps build daemon run test bench chaos nat-lab format fuzz fuzz-run deb clean ui-screenshots

all: build

deps:
	@.ci/install-deps

RELEASE_SETUP = --buildtype=release -Db_ndebug=false

# Every target of the release build: the daemon, skillsim, the tests and the benchmarks.
build: deps
	@$(call MESON_SETUP,$(BUILD_RUN),$(RELEASE_SETUP) -Dtests=true)
	meson compile -C $(BUILD_RUN)

# Only the daemon, with only the packages that building and running it needs.
daemon:
	@.ci/install-deps --run
	@$(call MESON_SETUP,$(BUILD_RUN),$(RELEASE_SETUP) -Dtests=false)
	meson compile -C $(BUILD_RUN) node/skillnode

# Starts a node on the embedded default configuration.
run: daemon
	@if [ ! -x $(BUILD_RUN)/node/skillnode ]; then \
	  echo "$(BUILD_RUN)/node/skillnode is missing after the build; see the errors above."; \
	  exit 1; \
	fi
	$(BUILD_RUN)/node/skillnode run

# Builds with AddressSanitizer and UndefinedBehaviorSanitizer, warnings as errors, and runs
# every test; the last line is "N passed, N failed, N skipped" (tests/summarize.py).
# The sanitizer build is -Og -g1: GCC 12 spends most of an instrumented -O2 -g compile on
# UBSan's alignment checks and on variable tracking; -Og -g1 compiles several times faster (and
# faster than -O0), with every check still in and line numbers in every report (docs/tests.md).
# No --buildtype: meson applies it after -Doptimization, and plain would make the build -O0.
SANITIZE_SETUP = -Doptimization=g -Ddebug=false -Dcpp_args=-g1 \
                 -Db_sanitize=address$(comma)undefined -Db_lundef=false -Dwerror=true
test: deps
	@$(call MESON_SETUP,$(BUILD_TEST),$(SANITIZE_SETUP))
	meson compile -C $(BUILD_TEST)
	@meson test -C $(BUILD_TEST) --print-errorlogs --num-processes 2 || true
	@python3 tests/summarize.py $(BUILD_TEST)

# Release build, then the daemon benchmark (FIND_NODE answers per second as a ratio to a bare
# libuv UDP echo server in the same run, a node's idle memory: bench/daemon_bench.py) and the
# registry benchmark (the trivial route, search, list and the capability endpoint: requests
# per second, p99 and share of the trivial route with 20,000 registrations; memory with 120,000
# stored records: bench/registry_bench.py, driven by wrk) and skillnode beside OpenDHT's
# dhtnode, N processes of each (bench/cluster_bench.py).
bench: build
	@.ci/install-deps wrk dhtnode
	python3 bench/daemon_bench.py $(BUILD_RUN)
	python3 bench/registry_bench.py $(BUILD_RUN)
	python3 bench/cluster_bench.py $(BUILD_RUN)

# The long chaos run: 100 nodes in network namespaces, 10 minutes of kills and restarts under
# loss, then a partition (tests/chaos/chaos_test.py; make test runs 30 nodes for about 2
# minutes). Needs root. Its last line is the summary docs/tests.md quotes.
# Each run draws a fresh seed and prints it first; CHAOS_SEED=N replays one (make test's short
# run always uses the same seed).
chaos: build
	SKILLNODE=$(BUILD_RUN)/node/skillnode python3 tests/chaos/chaos_test.py --hosts 100 \
	  --skills 30 --chaos-seconds 600 $(if $(CHAOS_SEED),--seed $(CHAOS_SEED))

# The NAT lab's long run: the nodes behind two real NATs (nftables routers in namespaces) and
# four public ones, then 10 minutes of searches from every node, after which no public node's
# routing table may hold a NATed node (tests/node/reach/nat_lab_test.py; make test checks the
# same 10 s after the verdicts). Needs root.
nat-lab: build
	SKILLNODE=$(BUILD_RUN)/node/skillnode python3 tests/node/reach/nat_lab_test.py \
	  --traffic-seconds $(or $(NAT_LAB_SECONDS),600)

# The web console's browser test (tests/ui/ui_test.py) with its screenshots copied to docs/ui/,
# the pictures docs/console.md shows: run after a change to the console's look, then commit
# docs/ui/.
# The fixtures' CJK text and emoji need their fonts in the screenshots (Debian's Noto).
ui-screenshots:
	@.ci/install-deps fonts-noto-cjk fonts-noto-color-emoji
	@$(call MESON_SETUP,$(BUILD_TEST),$(SANITIZE_SETUP))
	meson compile -C $(BUILD_TEST) node/skillnode
	SKILLNODE=$(BUILD_TEST)/node/skillnode UI_NPM_DIR=$(BUILD_TEST)/tests/ui/npm UI_DOCS_SCREENSHOTS=1 \
	  python3 tests/ui/ui_test.py

format: deps
	find node kademlia transport discovery bootstrap tests sim bench -name '*.h' -o -name '*.cpp' \
	  | grep -v '^tests/tidy/fixtures/' | xargs clang-format -i --style=file

# libFuzzer targets (clang): see docs/tests.md "Fuzzing". Only the targets and what they link
# are built (tests/fuzz/meson.build's fuzz-targets), not the whole tree under clang.
fuzz: deps
	@if [ -f $(BUILD_FUZZ)/build.ninja ]; then meson setup --reconfigure $(BUILD_FUZZ) -Dfuzz=true >/dev/null; \
	 else CXX=clang++ meson setup $(BUILD_FUZZ) -Dfuzz=true; fi
	meson compile -C $(BUILD_FUZZ) fuzz-targets

# The fuzzing campaign: every target (or TARGETS) for SECONDS seconds (default 60), or until
# RUNS executions when RUNS is set, from its seeds and the inputs earlier runs found; one line
# per target with its executions and executions per second.
SECONDS ?= 60
RUNS ?= 0
TARGETS ?=
fuzz-run: fuzz
	@tests/fuzz/run_campaign.sh $(CURDIR) $(BUILD_FUZZ) $(SECONDS) $(RUNS) $(TARGETS)

# The Debian package, skillnode_<version>_amd64.deb and -dbgsym, in build/deb; fails on any
# lintian error or warning (debian/make-deb.sh; docs/running.md "Running on a host").
deb: deps
	bash debian/make-deb.sh build/deb

clean:
	rm -rf build
