# netcfg: `make run` serves config/networks on 127.0.0.1:3000, `make test` checks everything.
# Stamps make both commands cheap to repeat: npm ci runs only when package-lock.json changed,
# tsc only when a source file changed.

SHELL := /bin/bash
NODE_MODULES := node_modules/.stamp
BUILD := dist/.stamp
SOURCES := $(shell find src schemas -type f \( -name '*.ts' -o -name '*.json' \) 2>/dev/null) tsconfig.json tsconfig.build.json

.PHONY: run test install build typecheck lint unit bench soak validate clean

run: $(BUILD)
	node dist/src/main.js

install: $(NODE_MODULES)

$(NODE_MODULES): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: $(BUILD)

$(BUILD): $(NODE_MODULES) $(SOURCES)
	npm run --silent build
	@touch $@

typecheck: $(NODE_MODULES)
	npx tsc -p tsconfig.json --noEmit

lint: $(NODE_MODULES)
	npx eslint .

unit: $(BUILD)
	npx mocha 'test/**/*.test.ts'

test: install typecheck lint build unit

# Checks a config folder the way the server loads it (DIR=... for another folder).
validate: $(BUILD)
	node dist/src/cli.js validate $(or $(DIR),config/networks)

# Benchmarks against baselines started in the same run; QUICK=1 for 2 s rows.
bench: $(BUILD)
	npx tsx bench/run.ts $(if $(QUICK),--quick,)

# The reliability tests at soak scale (see RELIABILITY.md); not part of `make test`.
soak: $(BUILD)
	KILL_LOOPS=$${KILL_LOOPS:-500} STORM_CYCLES=$${STORM_CYCLES:-100} FUZZ_RUNS=$${FUZZ_RUNS:-50000} FUZZ_FILES=$${FUZZ_FILES:-5000} CHECKOUT_RACES=$${CHECKOUT_RACES:-3000} \
	  npx mocha --timeout 0 'test/reliability/**/*.test.ts' test/store/network-file-fuzz.test.ts

clean:
	rm -rf dist node_modules
