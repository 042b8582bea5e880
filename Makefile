# selectlog — the two commands of the README, and a few more.
SWIFT ?= swift
EXAMPLE ?= Examples/strip-pan-autoscroll.jsonl
N ?= 1000
FUZZ_SECONDS ?= 60

.PHONY: deps build demo test bench crash-test fuzz fuzz-smoke clean

# libzstd-dev and pkg-config, from apt, when they are missing.
deps:
	@if ! pkg-config --exists libzstd 2>/dev/null || [ ! -f /usr/include/zstd.h ]; then \
		echo "make: installing libzstd-dev and pkg-config"; \
		SUDO=""; if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libzstd-dev pkg-config >/dev/null; \
	fi

build: deps
	$(SWIFT) build

# Replays a bundled example and prints its state, as a picture and as JSON.
demo: build
	$(SWIFT) run --skip-build selectlog replay $(EXAMPLE)
	@echo
	$(SWIFT) run --skip-build selectlog replay $(EXAMPLE) --json

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) fuzz-smoke

# The benchmark package (release build), with ratios against same-run baselines; fails on malloc gates.
bench: deps
	python3 Benchmarks/compare.py --gate --sizes

# The crash test with more kills: make crash-test N=1000
crash-test: deps
	$(SWIFT) build --build-tests
	CRASH_KILLS=$(N) $(SWIFT) test --skip-build --filter CrashTests

# Mutation testing of the core (Tools/mutation): N sampled mutants, each a rebuild and a core test run.
MUTANTS ?= 20
SEED ?= 1
.PHONY: mutation
mutation:
	python3 Tools/mutation/mutate.py --mutants $(MUTANTS) --seed $(SEED)

# libFuzzer harnesses (script decoder + engine + both codecs; log reader on forged
# files), FUZZ_SECONDS each: make fuzz FUZZ_SECONDS=600. Findings: .build-fuzz/findings/.
fuzz: deps
	$(SWIFT) build --product selectlog
	Fuzz/build.sh
	Fuzz/run.sh $(FUZZ_SECONDS)

# A few seconds of each harness, so that they keep building (part of make test).
fuzz-smoke: deps
	Fuzz/build.sh
	Fuzz/run.sh 3

clean:
	rm -rf .build Benchmarks/.build .build-fuzz
