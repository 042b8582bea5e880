# selectlog — the two commands of the README, and a few more.
SWIFT ?= swift
EXAMPLE ?= Examples/strip-pan-autoscroll.jsonl
N ?= 1000

.PHONY: deps build demo test test-nozstd tsan bench crash-test clean

# libzstd and pkg-config: from apt on Linux when missing; on macOS, pkg-config and
# Homebrew's zstd are checked and never installed (`brew install zstd pkg-config`).
deps:
	@if [ "$$(uname -s)" = Darwin ]; then \
		if ! pkg-config --exists libzstd 2>/dev/null; then \
			echo "make: libzstd not found by pkg-config; run: brew install zstd pkg-config" >&2; exit 1; \
		fi; \
	elif ! pkg-config --exists libzstd 2>/dev/null || ! pkg-config --cflags libzstd >/dev/null 2>&1 || [ ! -f "$$(pkg-config --variable=includedir libzstd 2>/dev/null)/zstd.h" ]; then \
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
	$(MAKE) test-nozstd

# The store's tests as an iOS build runs them: CZstd left out, batches stored
# uncompressed. Its own scratch path, so the main build is not rebuilt.
test-nozstd:
	SELECTLOG_WITHOUT_ZSTD=1 $(SWIFT) build --build-tests --scratch-path .build-nozstd
	SELECTLOG_WITHOUT_ZSTD=1 $(SWIFT) test --skip-build --scratch-path .build-nozstd --filter SelectLogStoreTests

# The store's tests (the recorder's concurrent appends and closes) under ThreadSanitizer.
tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter SelectLogStoreTests

# The benchmark package (release build), with ratios against same-run baselines; fails on malloc gates.
bench: deps
	python3 Benchmarks/compare.py --gate --sizes

# The crash test with more kills: make crash-test N=1000
crash-test: deps
	$(SWIFT) build --build-tests
	CRASH_KILLS=$(N) $(SWIFT) test --skip-build --filter CrashTests

clean:
	rm -rf .build .build-nozstd .build-tsan Benchmarks/.build
