#!/usr/bin/env bash
# The test command: installs what the tests need (Debian packages, the pinned
# npm packages), builds twice — plain, and with AddressSanitizer +
# UndefinedBehaviorSanitizer — and runs every test (unit, host integration,
# end-to-end with real Chromium) against both builds, then the libFuzzer
# targets for a short run each.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
jobs=$(nproc 2>/dev/null || echo 2)

install/deps.sh --test
(cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
bash tests/lint.sh  # JS lint and C++ format checks

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure)

# Sanitizer findings in any process (shim, host spawned by Chromium, tests)
# land in log files; a run that leaves one fails.
logs="$repo/build-asan/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTABBRIDGE_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=1"
(cd build-asan && ctest --output-on-failure)
if compgen -G "$logs/*" >/dev/null; then
  echo "sanitizer findings:" >&2
  head -n 60 "$logs"/* >&2
  exit 1
fi
echo "sanitizers: clean"

# Every fuzz target for a short run (fuzz/run.sh; longer runs: FUZZ_SECONDS).
FUZZ_SECONDS=${FUZZ_SECONDS:-20} fuzz/run.sh  # CI stays under 30 min
