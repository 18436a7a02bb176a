# netcfg: `make run` serves config/networks on 127.0.0.1:3000, `make test` checks everything.
# Stamps make both commands cheap to repeat: npm ci runs only when package-lock.json changed,
# tsc only when a source file changed.

SHELL := /bin/bash
NODE_MODULES := node_modules/.stamp
BUILD := dist/.stamp
SOURCES := $(shell find src schemas scripts -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.json' -o -name '*.css' -o -name '*.html' \) 2>/dev/null) tsconfig.json tsconfig.build.json

.PHONY: run test install browser prometheus build typecheck typecheck-node typecheck-console lint eslint format-check unit bench soak
.PHONY: validate clean

run: $(BUILD)
	node dist/src/main.js

install: $(NODE_MODULES)

# npm ci also builds dist/ (package.json's prepare script), so the build's stamp is set too: a fresh clone builds once.
$(NODE_MODULES): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@; if [ -f dist/src/main.js ]; then touch $(BUILD); fi

build: $(BUILD)

$(BUILD): $(NODE_MODULES) $(SOURCES)
	npm run --silent build
	@touch $@

# Each check is its own target so that `make -j` runs them side by side (`make test` does).
typecheck: typecheck-node typecheck-console
typecheck-node: $(NODE_MODULES)
	npx tsc -p tsconfig.json --noEmit
typecheck-console: $(NODE_MODULES)
	npx tsc -p src/console/tsconfig.json

lint: eslint format-check
eslint: $(NODE_MODULES)
	npx eslint .
format-check: $(NODE_MODULES)
	npx prettier --check --log-level warn src test bench scripts eslint.config.js

# Test files run TEST_JOBS at a time (mocha --parallel, one worker process each): most of the suite waits on
# built servers, git and Chromium, so three workers keep both cores busy (a fresh clone's make test, one after the
# other on this 2-core host: 510 s with two, 443 s with three, every test passing). `npx mocha <file>` runs serially;
# TEST_JOBS=1 runs the whole suite in one process, and SLOWEST=10 lists the ten slowest files after the run.
# Under --parallel each worker takes the next file in the order given (mocha's ParallelBufferedRunner), so the slowest
# files (SLOWEST=15 lists them) go first: started last, one of them would run alone at the end while the other worker
# idles. The rest follow in name order; a file gone from the list below is simply left out of it.
TEST_JOBS ?= 3
SLOW_TESTS := test/reliability/kill-loop.test.ts test/store/watch/watcher-start.test.ts test/reliability/git-storm.test.ts \
  test/reliability/hostile-files.test.ts test/console/overview.test.ts test/commands/relayer-files.test.ts \
  test/relayer/lease/lease-interleavings.test.ts test/proposals/proposals-server.test.ts test/reliability/bad-files.test.ts \
  test/store/git/git-sync-replicas.test.ts test/store/watch/watcher.test.ts test/console/network-page.test.ts
TEST_FILES = $(wildcard $(SLOW_TESTS)) $(filter-out $(SLOW_TESTS),$(shell LC_ALL=C find test -name '*.test.ts' | LC_ALL=C sort))
MOCHA_FLAGS = $(if $(filter 1,$(TEST_JOBS)),,--parallel --jobs $(TEST_JOBS)) $(if $(SLOWEST),--reporter-option slowest=$(SLOWEST),)
unit: $(BUILD) browser prometheus
	@echo 'npx mocha $(strip $(MOCHA_FLAGS)) <the $(words $(SLOW_TESTS)) slowest test files, then the other test/**/*.test.ts>'
	@npx mocha $(MOCHA_FLAGS) $(TEST_FILES)

# The console's end-to-end tests drive Debian's chromium (a browser download cannot work on these
# machines). Installed once with apt-get, as root or through sudo; CHROMIUM_PATH names another browser.
CHROMIUM_PATH ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@test -x "$(CHROMIUM_PATH)" || { echo "installing Debian's chromium for the console tests"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium; }

# The metrics' tests check GET /metrics with promtool and scrape netcfg with a real Prometheus, from
# Debian's prometheus package, installed once like chromium; PROMTOOL_PATH and PROMETHEUS_PATH name others.
PROMTOOL_PATH ?= /usr/bin/promtool
PROMETHEUS_PATH ?= /usr/bin/prometheus
export PROMTOOL_PATH PROMETHEUS_PATH
prometheus:
	@test -x "$(PROMTOOL_PATH)" || { echo "installing Debian's prometheus for the metrics tests"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends prometheus; }

# The four checks and the build read the installed modules and nothing of each other's output, so they run side by side
# (their ~60 s of CPU shared by both cores); each one's output is printed whole when it ends. The tests wait for all.
test: install browser prometheus
	@$(MAKE) --no-print-directory -j5 --output-sync=target typecheck lint build
	@$(MAKE) --no-print-directory unit

# Checks a config folder the way the server loads it (DIR=... for another folder).
validate: $(BUILD)
	node dist/src/cli.js validate $(or $(DIR),config/networks)

# Benchmarks against baselines started in the same run; QUICK=1 for 2 s rows.
bench: $(BUILD)
	npx tsx bench/run.ts $(if $(QUICK),--quick,)

# The reliability tests at soak scale (see RELIABILITY.md); not part of `make test`.
soak: $(BUILD)
	KILL_LOOPS=$${KILL_LOOPS:-500} STORM_CYCLES=$${STORM_CYCLES:-100} FUZZ_RUNS=$${FUZZ_RUNS:-50000} FUZZ_FILES=$${FUZZ_FILES:-5000} CHECKOUT_RACES=$${CHECKOUT_RACES:-3000} \
	  SHAPE_FLIPS=$${SHAPE_FLIPS:-500} FORCE_PUSH_CYCLES=$${FORCE_PUSH_CYCLES:-100} \
	  npx mocha --timeout 0 'test/reliability/**/*.test.ts' test/store/validation/network-file-fuzz.test.ts

clean:
	rm -rf dist node_modules
