#!/usr/bin/env bash
# The test command: installs what the tests need (Debian packages, the pinned
# npm packages, the Windows cross toolchain and Wine), builds four ways and
# runs every test once:
#   build-asan     AddressSanitizer + UndefinedBehaviorSanitizer at -O1: every
#                  test, the browser suite (real Chromium) included
#   build-package  the two programs as shipped (no tests): the .deb is built
#                  from it and checked (tests/package/deb_test.sh); a
#                  sanitized build is not one we would ship
#   build-windows  the Windows programs (mingw-w64): their tests under Wine
#   build-fuzz     the libFuzzer targets, a short run each
# The browser suite runs once, under the sanitizers, two files at a time
# (two slots of tests/e2e/browsers.json; the files that race the browser's
# timing or run several browsers take both); everything else runs two tests
# at a time. While the sanitized build and suite run, the other three builds
# compile at the lowest priority on what CPU they leave idle. Every compile
# goes through ccache where it is installed (CMakeLists.txt). Prints each
# stage's wall time at the end.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
jobs=$(nproc 2>/dev/null || echo 2)
times=$(mktemp)
background=""
# On any exit, the background builds go too (their own process group): an
# orphaned build would race the next run's in the same directory.
trap 'rm -f "$times"; [[ -n $background ]] && kill -- "-$background" 2>/dev/null; true' EXIT

# stage NAME CMD...: runs CMD, noting its wall time under NAME; its status
# is CMD's. (Called as `stage … || status=1`, set -e is off inside it: the
# status must be returned, not left to the printf after it.)
stage() {
  local name=$1 start=$SECONDS rc=0
  shift
  echo "== $name" >&2
  "$@" || rc=$?
  printf '%-28s %5d s\n' "$name" $((SECONDS - start)) >>"$times"
  return "$rc"
}

stage "deps (Debian)" install/deps.sh --test

# The builds the browser suite does not need, at nice 19 in the background
# (they only take CPU the foreground leaves idle). Its log is shown if it fails.
background_log="$repo/build-background.log"
set -m  # job control: the background job gets a process group of its own
(
  set -euo pipefail
  stage "deps (Windows)" nice -n 19 install/deps.sh --windows  # first: mostly downloads
  cmake -S . -B build-package -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTABBRIDGE_TESTS=OFF >/dev/null
  stage "build (package)" nice -n 19 cmake --build build-package -j "$jobs"
  # Tests on, explicitly: install/windows.sh builds the same directory without them.
  cmake -S . -B build-windows -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DCMAKE_BUILD_TYPE=Release \
    -DTABBRIDGE_TESTS=ON >/dev/null
  stage "build (Windows)" nice -n 19 cmake --build build-windows -j "$jobs"
  stage "build (fuzz)" nice -n 19 fuzz/run.sh --build-only
) >"$background_log" 2>&1 &
background=$!
set +m

stage "npm ci" bash -c 'cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error'
stage "lint" bash tests/lint.sh  # JS lint and C++ format checks

# Sanitizer findings in any process (shim, host spawned by Chromium, tests)
# land in log files; a run that leaves one fails.
logs="$repo/build-asan/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTABBRIDGE_SANITIZE=ON >/dev/null
stage "build (sanitized)" cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=1"
status=0
stage "ctest (sanitized, no browser)" ctest --test-dir build-asan --output-on-failure -j "$jobs" -E '^e2e_' ||
  status=1
stage "ctest (sanitized, browser)" ctest --test-dir build-asan --output-on-failure -R '^e2e_' -j "$jobs" \
  --resource-spec-file "$repo/tests/e2e/browsers.json" || status=1
if compgen -G "$logs/*" >/dev/null; then
  echo "sanitizer findings:" >&2
  head -n 60 "$logs"/* >&2
  status=1
else
  echo "sanitizers: clean"
fi
unset ASAN_OPTIONS UBSAN_OPTIONS

background_status=0
wait "$background" || background_status=$?
if ((background_status != 0)); then
  background=""
  # Its last "== stage" line names the stage that failed; a stage killed
  # from outside (a signal: status above 128) may have written nothing more.
  echo "a background build failed (status $background_status), in its stage" \
    "'$(grep '^== ' "$background_log" | tail -n 1 | cut -c4-)'; the end of $background_log:" >&2
  tail -n 80 "$background_log" >&2
  exit 1
fi
background=""
cat "$background_log" >&2
# Every other test ran above, under the sanitizers; the package is built
# from the unsanitized programs.
stage "package (.deb)" bash tests/package/deb_test.sh build-package || status=1
stage "ctest (Windows, Wine)" ctest --test-dir build-windows --output-on-failure || status=1
# Every fuzz target for a short run, two at a time (fuzz/run.sh; longer runs: FUZZ_SECONDS).
stage "fuzz" env FUZZ_SECONDS="${FUZZ_SECONDS:-20}" FUZZ_JOBS="$jobs" fuzz/run.sh || status=1

echo "== wall time per stage (the background builds overlap the sanitized ctest)"
cat "$times"
exit "$status"
