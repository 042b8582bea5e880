# selectlog — the two commands of the README, and a few more.
SWIFT ?= swift
EXAMPLE ?= Examples/strip-pan-autoscroll.jsonl
N ?= 1000
FUZZ_SECONDS ?= 60
STRESS_SECONDS ?= 600

.PHONY: deps build demo test test-build uikit-typecheck nozstd-build fuzz-smoke-build test-nozstd nozstd-roundtrip tsan bench crash-test stress fuzz fuzz-smoke clean viewer-deps viewer-check viewer-screenshot

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

# Replays a bundled example and prints its state, as a picture and as JSON; writes its viewer page.
demo: build
	$(SWIFT) run --skip-build selectlog replay $(EXAMPLE)
	@echo
	$(SWIFT) run --skip-build selectlog replay $(EXAMPLE) --json
	@echo
	$(SWIFT) run --skip-build selectlog view $(EXAMPLE) -o .build/demo-view.html
	@echo "viewer: open file://$(CURDIR)/.build/demo-view.html in a browser"

# The suite runs in a release build (SELECTLOG_INTERNAL_CHECKS=1, read by Package.swift):
# the libraries optimised but checking what debug builds check (the engine's invariants
# after every event, and `assert`s), the test targets unoptimised, imports testable.
# The suite runs in a quarter of a debug build's time; the build takes about half as
# long again. Its own scratch path, so neither `swift build` nor `swift build -c release`
# is rebuilt by it.
# Both of make test's builds leave out the DocC plugin (SELECTLOG_WITHOUT_DOCC_PLUGIN, read
# by Package.swift), which only make docs uses and which each fresh scratch path compiles.
TEST_BUILD = SELECTLOG_INTERNAL_CHECKS=1 SELECTLOG_WITHOUT_DOCC_PLUGIN=1 $(SWIFT)
NOZSTD_BUILD = SELECTLOG_WITHOUT_ZSTD=1 SELECTLOG_WITHOUT_DOCC_PLUGIN=1 $(SWIFT)
TEST_FLAGS = -c release -Xswiftc -enable-testing --scratch-path .build-test

# The no-zstd build's store tests that make test runs: those that record, read, verify,
# compact, upgrade and damage logs, which reach every branch that build takes
# (`Zstd.isAvailable`). `make test-nozstd` runs every store test there, among them the
# v1-v6 logs of `check` (PipelinedCheckTests, 45 s) and the format 4 windows.
NOZSTD_QUICK = SelectLogStoreTests\.((LogRoundTripTests|WriteReadBackTests|RangeCodedPayloadTests|RecorderTests|ReadmeExampleTests|ReplayRecordTests|HostileFileTests|DamageTests|SkippedDamageTests|ParallelVerifyTests|FingerprintTests|ExclusiveCreationTests|CodedBatchTests)/|FormatV4Tests/rewriterWindows\()
NOZSTD_TESTS ?= SelectLogStoreTests
# Left to the main run (a release build) everywhere: the exhaustive damage sweeps and the
# size guard (see test-nozstd). Left out of make test's quick run besides: the three
# megabyte-event tests of the write-read-back limits (a minute of this debug build
# between them, which took make test past its 10 minutes). make test-nozstd runs them.
NOZSTD_SKIP = bitFlips|truncationEverywhere|sizes\(
NOZSTD_QUICK_SKIP = largestEvent|stateOverTheRecordLimit|millionEmptyOptions

# The three builds (the suite's, the no-zstd one, the fuzz smoke's) run side by side,
# after the packages are resolved once: none of them keeps two cores busy for its whole
# length. Then the tests, one run at a time.
# GNU make 3.81 (macOS) has no --output-sync: its builds' lines interleave.
OUTPUT_SYNC = $(if $(filter 3.%,$(MAKE_VERSION)),,--output-sync=target)
test: deps viewer-deps doc-coverage
	$(TEST_BUILD) package resolve $(TEST_FLAGS)
	$(MAKE) -j3 $(OUTPUT_SYNC) test-build nozstd-build fuzz-smoke-build
	Tools/uikit-typecheck/check.sh .build-test/release/Modules
	$(TEST_BUILD) test --skip-build $(TEST_FLAGS)
	$(TEST_BUILD) run --skip-build $(TEST_FLAGS) EmbeddingExample
	$(MAKE) test-nozstd NOZSTD_TESTS='$(NOZSTD_QUICK)' NOZSTD_SKIP='$(NOZSTD_SKIP)|$(NOZSTD_QUICK_SKIP)'
	$(MAKE) fuzz-smoke SELECTLOG=.build-test/release/selectlog
	Tools/independent-reader/check.sh .build-test/release/selectlog

test-build: deps
	$(TEST_BUILD) build --build-tests $(TEST_FLAGS)

# SelectLogUIKit is compiled only for Apple platforms: here it is type-checked against a
# stand-in for the UIKit members it uses (Tools/uikit-typecheck), with the debug build's
# modules. make test does the same with its own build's.
uikit-typecheck: build
	Tools/uikit-typecheck/check.sh .build/debug/Modules

nozstd-build: deps
	$(NOZSTD_BUILD) build --build-tests --scratch-path .build-nozstd

# The store's tests as an iOS build runs them: CZstd left out, batches stored
# uncompressed. Its own scratch path, so the main build is not rebuilt. All of them
# here; make test runs those in NOZSTD_QUICK.
# The two exhaustive damage sweeps are left to the main run (uncompressed logs make
# them ten times longer), and so is the size guard, whose stored cases already write
# what this build writes. Then every bundled example is recorded by this build and
# replayed and compacted by the normal one: same state, never bigger (format 3's
# batches are range-coded even when stored, so only checkpoints shrink); and a
# synthetic session with checkpoints: same state, smaller.
test-nozstd: nozstd-build
	$(NOZSTD_BUILD) test --skip-build --scratch-path .build-nozstd --filter '$(NOZSTD_TESTS)' --skip '$(NOZSTD_SKIP)'
	$(MAKE) nozstd-roundtrip

# The normal build here is make test's (TEST_FLAGS): built already when make test gets
# here, and built by this target otherwise. The no-zstd build is make test-nozstd's.
nozstd-roundtrip:
	@echo "nozstd-roundtrip: the normal build (.build-test)"
	@out=$$($(TEST_BUILD) build $(TEST_FLAGS) --product selectlog 2>&1) || { printf '%s\n' "$$out" >&2; exit 1; }; \
	printf '%s\n' "$$out" | grep 'warning:' || true; printf '%s\n' "$$out" | tail -1
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; stored=0; packed=0; n=0; \
	nozstd=$$($(NOZSTD_BUILD) build --scratch-path .build-nozstd --show-bin-path)/selectlog; \
	[ -x "$$nozstd" ] || { echo "nozstd-roundtrip: no build without zstd in .build-nozstd: run make test-nozstd" >&2; exit 1; }; \
	normal=$$($(TEST_BUILD) build $(TEST_FLAGS) --show-bin-path)/selectlog; \
	for script in Examples/*.jsonl Examples/bugs/*.jsonl; do \
		log="$$dir/$$(basename $$script .jsonl).slog"; \
		"$$nozstd" record "$$script" -o "$$log"; \
		"$$nozstd" replay "$$script" --json > "$$dir/expected.json"; \
		"$$normal" replay "$$log" --json > "$$dir/stored.json"; \
		"$$normal" compact "$$log" -o "$$log.zst" >/dev/null; \
		"$$normal" replay "$$log.zst" --json > "$$dir/packed.json"; \
		cmp -s "$$dir/expected.json" "$$dir/stored.json" || { echo "nozstd-roundtrip: $$script: the stored log replays differently" >&2; exit 1; }; \
		cmp -s "$$dir/expected.json" "$$dir/packed.json" || { echo "nozstd-roundtrip: $$script: the compacted log replays differently" >&2; exit 1; }; \
		stored=$$((stored + $$(wc -c < "$$log"))); packed=$$((packed + $$(wc -c < "$$log.zst"))); n=$$((n + 1)); \
	done; \
	[ "$$packed" -le "$$stored" ] || { echo "nozstd-roundtrip: compact made the logs bigger ($$stored -> $$packed bytes)" >&2; exit 1; }; \
	echo "nozstd-roundtrip: $$n examples recorded without zstd replay identically; compact: $$stored -> $$packed bytes"; \
	"$$nozstd" synthesize --events 20000 -o "$$dir/syn.slog" >/dev/null; \
	"$$nozstd" replay "$$dir/syn.slog" --json > "$$dir/expected.json"; \
	"$$normal" verify "$$dir/syn.slog" >/dev/null; \
	"$$normal" compact "$$dir/syn.slog" -o "$$dir/syn.zst.slog" >/dev/null; \
	"$$normal" replay "$$dir/syn.zst.slog" --json > "$$dir/packed.json"; \
	cmp -s "$$dir/expected.json" "$$dir/packed.json" || { echo "nozstd-roundtrip: the compacted synthetic session replays differently" >&2; exit 1; }; \
	[ "$$(wc -c < "$$dir/syn.zst.slog")" -lt "$$(wc -c < "$$dir/syn.slog")" ] || { echo "nozstd-roundtrip: compact did not shrink the synthetic session" >&2; exit 1; }; \
	if "$$nozstd" replay "$$dir/syn.zst.slog" > /dev/null 2> "$$dir/err"; then echo "nozstd-roundtrip: a build without zstd read a zstd log" >&2; exit 1; \
	else code=$$?; [ $$code = 65 ] && grep -q "this build reads no zstd batches" "$$dir/err" || { echo "nozstd-roundtrip: a build without zstd meeting a zstd batch exited $$code: $$(cat $$dir/err)" >&2; exit 1; }; fi; \
	echo "nozstd-roundtrip: synthetic session of 20000 events: $$(wc -c < "$$dir/syn.slog") -> $$(wc -c < "$$dir/syn.zst.slog") bytes, same state"

# The store's suites that run threads (the engine lock, the recorder's writer and append
# queue, pipelined replay and check, verify's checking threads, readers shared between
# tasks, threads that fail to start) under ThreadSanitizer, one test at a time, with each
# result shown as it comes: 63 tests, about 25 minutes on two cores (2026-12-07). The
# whole store suite under the sanitizer had not finished in 50 minutes.
TSAN_SUITES = EngineLock|ReaderConcurrency|ParallelVerify|PipelinedReplay|PipelinedCheck|ThreadStartFailure|RecorderTests|DeepVerify|AlignedSegment
LINE_BUFFERED = $(shell command -v stdbuf >/dev/null 2>&1 && echo stdbuf -oL -eL)
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(LINE_BUFFERED) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_SUITES)' --no-parallel

# The benchmark package (release build), with ratios against same-run baselines; fails on malloc gates.
bench: deps
	python3 Benchmarks/compare.py --gate --sizes

# Events whose cost grows with the state (Tools/cost-audit): each case at SIZE and 4 x SIZE.
SIZE ?= 25000
.PHONY: cost-audit
cost-audit: deps
	SIZE=$(SIZE) Tools/cost-audit/run.sh

# The crash test with more kills: make crash-test N=1000
crash-test: deps
	$(TEST_BUILD) build --build-tests $(TEST_FLAGS)
	CRASH_KILLS=$(N) $(TEST_BUILD) test --skip-build $(TEST_FLAGS) --filter CrashTests

# The recorder from several threads with tiny options, seed after seed, for longer:
# make stress STRESS_SECONDS=1800 (make test: about 6 s).
stress: deps
	$(TEST_BUILD) build --build-tests $(TEST_FLAGS)
	SELECTLOG_STRESS_SECONDS=$(STRESS_SECONDS) $(TEST_BUILD) test --skip-build $(TEST_FLAGS) --filter RecorderStressTests

# The log format read by a second implementation written from docs/LOG-FORMAT.md alone
# (Tools/independent-reader), compared with `selectlog export` on the logs check.sh makes (part of make test).
.PHONY: conformance
conformance: build
	Tools/independent-reader/check.sh .build/debug/selectlog

# DocC documentation of the two libraries (swift-docc-plugin); any DocC warning fails it.
# Output: .build/plugins/Swift-DocC/outputs/{SelectLog,SelectLogStore}.doccarchive.
.PHONY: docs doc-coverage
docs: deps
	$(SWIFT) package generate-documentation --target SelectLog --warnings-as-errors
	$(SWIFT) package generate-documentation --target SelectLogStore --warnings-as-errors

# Every public declaration of SelectLog and SelectLogStore has a doc comment (a line scan; part of make test).
doc-coverage:
	python3 Tools/doc-coverage.py

# Mutation testing of the core (Tools/mutation): N sampled mutants, each a rebuild and a core test run.
MUTANTS ?= 20
SEED ?= 1
.PHONY: mutation
mutation:
	python3 Tools/mutation/mutate.py --mutants $(MUTANTS) --seed $(SEED)

# libFuzzer harnesses (script decoder + engine + both codecs; log reader on forged
# files; snapshot reader on patched snapshots of real states), FUZZ_SECONDS each:
# make fuzz FUZZ_SECONDS=600. Findings: .build-fuzz/findings/.
fuzz: deps
	$(SWIFT) build --product selectlog
	Fuzz/build.sh
	Fuzz/run.sh $(FUZZ_SECONDS)

# A few seconds of each harness, so that they keep building (part of make test).
# Unoptimised, in its own directory: it compiles in a third of the time, and make fuzz
# keeps its optimised build.
# The logs it seeds the log harness with are recorded by SELECTLOG (make test: its own
# build's; by default .build/debug/selectlog, and none when it does not exist).
# A toolchain without libFuzzer (Xcode's) skips the smoke with a note (FUZZ_OPTIONAL).
fuzz-smoke: fuzz-smoke-build
	FUZZ_OPTIONAL=1 FUZZ_BUILD=.build-fuzz-smoke Fuzz/run.sh 3

fuzz-smoke-build: deps
	FUZZ_OPTIONAL=1 FUZZ_BUILD=.build-fuzz-smoke FUZZ_OPT=-Onone Fuzz/build.sh

clean:
	rm -rf .build .build-test .build-nozstd .build-tsan .build-fuzz .build-fuzz-smoke Benchmarks/.build

# Viewer: Debian's chromium for the browser tests, from apt on Linux when no browser is found (never on macOS).
BROWSER ?= $(shell command -v chromium || command -v chromium-browser || command -v google-chrome || true)
viewer-deps:
	@if [ "$$(uname -s)" = Linux ] && [ -z "$(BROWSER)" ] && command -v apt-get >/dev/null; then \
		echo "make: installing chromium for the viewer's browser tests"; \
		SUDO=""; if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi

# Viewer: the browser test on a 50,000-event synthetic window (size budget, move timing); a few minutes.
viewer-check: deps viewer-deps
	$(TEST_BUILD) build --build-tests $(TEST_FLAGS)
	SELECTLOG_VIEWER_GATE=1 SELECTLOG_VIEWER_EVENTS=50000 SELECTLOG_VIEWER_MOVES=300 $(TEST_BUILD) test --skip-build $(TEST_FLAGS) --filter ViewerBrowserTests

# Viewer: docs/viewer.png, the README's screenshot of the strip example's page.
viewer-screenshot: build viewer-deps
	$(SWIFT) run --skip-build selectlog view Examples/strip-pan-autoscroll.jsonl -o .build/viewer-screenshot.html
	"$$(command -v chromium || command -v chromium-browser || command -v google-chrome)" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --window-size=1440,900 --screenshot=$(CURDIR)/docs/viewer.png \
		"file://$(CURDIR)/.build/viewer-screenshot.html#event=10&a=4&b=10" 2>/dev/null
	@echo "wrote docs/viewer.png"
