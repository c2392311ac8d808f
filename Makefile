# padbench — the README's two commands are `make setup` and `make test`.
SHELL        := /bin/bash
SWIFT        ?= swift
DATASET      ?= datasets/sample
PROFILES     ?= basic
OUT          ?=
MODEL        ?=
EXTERNAL     ?=
GATE         ?=
RELEASE_BIN  := .build/release/padbench
DEBUG_BIN    := .build/debug/padbench
APT_PACKAGES := libpng-dev libturbojpeg0-dev libzstd-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg \
                opencv-data libdlib-data pkg-config zstd python3 python3-venv
# ONNX Runtime's C library comes from PyPI's wheel (Debian has no package): a project-local virtual
# environment, where padbench finds it next to the checkout without configuration.
VENV         := .venv
ONNXRUNTIME_VERSION := 1.32.0

.PHONY: setup deps system-packages onnxruntime build release test test-all test-asan fuzz fuzz-build bench benchmark regress clean smoke smoke-debug smoke-run slurm-check report-shots format format-check

## setup: install the Debian packages, resolve Swift packages and build (release)
setup: deps
	$(SWIFT) package resolve
	$(SWIFT) build -c release

## deps: the native libraries and cascade models (needs root or sudo), then the pinned onnxruntime wheel
deps: system-packages onnxruntime

system-packages:
	@if dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then echo "system packages present"; \
	else SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_PACKAGES); fi

## onnxruntime: PyPI's onnxruntime wheel (pinned) in $(VENV); its libonnxruntime.so is what padbench loads
onnxruntime:
	@if [ -f $(VENV)/.onnxruntime-$(ONNXRUNTIME_VERSION) ]; then echo "onnxruntime $(ONNXRUNTIME_VERSION) present in $(VENV)"; \
	else python3 -m venv $(VENV) && $(VENV)/bin/pip install -q --disable-pip-version-check onnxruntime==$(ONNXRUNTIME_VERSION) \
	  && touch $(VENV)/.onnxruntime-$(ONNXRUNTIME_VERSION) && echo "onnxruntime $(ONNXRUNTIME_VERSION) installed in $(VENV)"; fi

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

## test: the test suites, debug build (the library modules optimised: Package.swift). Locally the long
## equality suites (trait `.thorough`) are skipped; with CI=true, PADBENCH_TESTS=all or `make test-all`
## every suite runs. Tests get TMPDIR=$(TEST_TMP), which must be empty when they end.
# --no-parallel: one test at a time is faster here, because many tests start processes (padbench,
# external programs) or use every core themselves; run side by side on 2 cores they starved each
# other: the whole suite took 175 s one at a time against 453 s in parallel (2026-11-28, this VM).
TEST_TMP := .build/test-tmp
# What `swift test` itself leaves in TMPDIR (its lock files, Foundation's TemporaryDirectory.*
# scratch folders), checked with a run that selects no test at all.
SWIFTPM_TMP := ^(_.*\.lock|TemporaryDirectory\.[A-Za-z0-9]{6})$$
test:
	$(SWIFT) build --build-tests
	@rm -rf $(TEST_TMP) && mkdir -p $(TEST_TMP)
	TMPDIR=$(CURDIR)/$(TEST_TMP) $(SWIFT) test --skip-build --no-parallel
	@left=$$(ls -A $(TEST_TMP) | grep -v -E '$(SWIFTPM_TMP)'); if [ -n "$$left" ]; then \
	  echo "the tests left files in TMPDIR ($(TEST_TMP)):"; echo "$$left" | head -20; exit 1; fi

## test-all: every suite, the long equality suites included (what CI runs)
test-all:
	PADBENCH_TESTS=all $(MAKE) test

## test-asan: every test suite once under AddressSanitizer (own scratch folder .build-asan)
test-asan:
	$(SWIFT) build --build-tests --sanitize address --scratch-path .build-asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt $(SWIFT) test --skip-build --sanitize address --scratch-path .build-asan

## fuzz: build the libFuzzer targets (Fuzz/Targets, PADBENCH_FUZZ=1, .build-fuzz) and run each for SECONDS
FUZZ_TARGETS := FuzzJPEG FuzzPNG FuzzManifest FuzzScoreFile FuzzProfile FuzzLunaOSL FuzzMisnapMibi \
                FuzzIdemiaStatus FuzzLongCSV FuzzArchive FuzzExternalAnswer FuzzTarRoundTrip FuzzPNM FuzzCascadeXML FuzzVideo \
                FuzzShapePredictor FuzzOnnxSpec FuzzResumeJob
SECONDS      ?= 60
FUZZ_BIN     := .build-fuzz/debug
# --no-gc-sections: gold's section garbage collection drops the __sancov_cntrs/__sancov_pcs sections
# (they are only reached through __start_/__stop_ symbols), which leaves libFuzzer with no coverage
# feedback at all ("no interesting inputs ... Is the code instrumented for coverage?"). The check
# after each link refuses a target that was linked without them.
# -Xswiftc -sanitize=fuzzer,address, not `--sanitize fuzzer --sanitize address`: SwiftPM passes
# those as two flags (-sanitize=fuzzer -sanitize=address) and swiftc keeps only the last one, so
# the objects had AddressSanitizer but no coverage counters (checked 2026-11-24 with Swift 6.3.1:
# `swiftc -sanitize=fuzzer -sanitize=address -c` writes no __sancov_cntrs, `-sanitize=fuzzer,address`
# does). `--sanitize fuzzer` stays: it tells SwiftPM that the targets have no main.
fuzz-build:
	@for t in $(FUZZ_TARGETS); do \
	  PADBENCH_FUZZ=1 $(SWIFT) build --scratch-path .build-fuzz --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address \
	    --product $$t -Xlinker --no-gc-sections || exit 1; \
	  readelf -S $(FUZZ_BIN)/$$t | grep -q __sancov_cntrs || { echo "$$t: no coverage counters in the binary"; exit 1; }; done

# New inputs go to .build-fuzz/corpus/<target>; the committed seeds in Fuzz/Corpus/<target> are only read.
# A crash leaves .build-fuzz/crash-<target>-<hash> and stops the loop (exit 1). Leaks inside the
# toolchain's libraries (FoundationXML's parse-error strings) are suppressed as in `make test-asan`.
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p .build-fuzz/corpus/$$t; echo "== $$t for $(SECONDS) s"; \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt \
	  SWIFT_BACKTRACE=enable=no $(FUZZ_BIN)/$$t -max_total_time=$(SECONDS) -rss_limit_mb=2048 -timeout=10 \
	    -artifact_prefix=.build-fuzz/crash-$$t- .build-fuzz/corpus/$$t Fuzz/Corpus/$$t 2>&1 | grep -E "^#.*DONE|ERROR|SUMMARY|Test unit written|no interesting inputs" ; \
	  test $${PIPESTATUS[0]:-0} -eq 0 || exit 1; done
## bench: the release binary on a dataset (default: the committed sample)
bench: release
	$(RELEASE_BIN) bench --dataset $(DATASET) --profiles $(PROFILES) $(if $(OUT),--out $(OUT)) $(if $(MODEL),--model $(MODEL)) $(if $(EXTERNAL),--external "$(EXTERNAL)")

## format: format Sources and Tests in place with the toolchain's swift-format (.swift-format: 4 spaces, 120 columns)
format:
	$(SWIFT) format format --in-place --parallel --recursive Sources Tests Package.swift

## format-check: lint Sources and Tests against .swift-format; exits non-zero on any violation
format-check:
	$(SWIFT) format lint --strict --parallel --recursive Sources Tests Package.swift

## benchmark: speed measurements, release build, ratios against baselines in the same run
benchmark: release
	./Benchmarks/run.sh

clean:
	rm -rf .build reports/*/

## regress: bench DATASET with PROFILES (MODEL=, EXTERNAL=, GATE= passed on) and compare it with the
## baseline archive BASE; fails on a regression or when the runs cannot be compared (make exits 2 for
## any failed recipe: scripts/regress.sh itself exits 1 for a regression, 2 when not comparable)
regress: release
	@test -n "$(BASE)" || { echo "usage: make regress BASE=path/to/baseline/results.tar.zst [DATASET=...] [PROFILES=...] [MODEL=...] [EXTERNAL=...]"; exit 2; }
	MODEL="$(MODEL)" EXTERNAL="$(EXTERNAL)" GATE="$(GATE)" ./scripts/regress.sh "$(BASE)" "$(DATASET)" "$(PROFILES)"

## smoke: the release binary as a user runs it: bench on the sample, then compare the run with itself (exit 0)
smoke: release
	$(MAKE) --no-print-directory smoke-run BIN=$(RELEASE_BIN)

## smoke-debug: the same run with the debug build `make test` made (CI: no second compile; the
## library modules are optimised in debug too)
smoke-debug: build
	$(MAKE) --no-print-directory smoke-run BIN=$(DEBUG_BIN)

smoke-run:
	rm -rf reports/smoke
	$(BIN) bench --dataset $(DATASET) --profiles $(PROFILES) --out reports/smoke --quiet
	$(BIN) compare reports/smoke reports/smoke

## slurm-check: a one-node Slurm on localhost runs examples/slurm/padbench-array.sbatch (4 shards) over DATASET; merged = single run
slurm-check: release
	DATASET=$(abspath $(DATASET)) PROFILES=$(PROFILES) ./scripts/slurm-check.sh

## report-shots: render sample reports (bench, eval, import, compare, folds) with headless Chromium into reports/shots/*.png
report-shots: build
	./scripts/report-shots.sh .build/debug/padbench
