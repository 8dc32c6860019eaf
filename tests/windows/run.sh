#!/usr/bin/env bash
# The Windows build and its tests, on Debian: install/deps.sh --windows (the
# cross toolchain, Wine, libuv and GoogleTest for mingw, cached), configure
# build-windows with cmake/mingw-w64.cmake, build, and ctest, which runs the
# .exe files under Wine. Prints each stage's wall time and the test counts.
#   tests/windows/run.sh [build dir]   (default: build-windows in the source tree)
#   TABBRIDGE_JOBS=n                   parallel compile jobs (default 2)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-windows}
jobs=${TABBRIDGE_JOBS:-2}
summary=()

# Runs "$@" as the stage named $1, timing it.
stage() {
  local name=$1
  shift
  local start=$SECONDS
  echo "== $name"
  "$@"
  summary+=("$(printf '%-10s %4d s' "$name" $((SECONDS - start)))")
}

stage deps bash "$root/install/deps.sh" --windows
# Tests on, explicitly: install/windows.sh builds the same directory without them.
stage configure cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTABBRIDGE_TESTS=ON
stage build cmake --build "$build" -j"$jobs"
status=0
stage ctest ctest --test-dir "$build" --output-on-failure || status=$?

echo "== summary"
printf '%s\n' "${summary[@]}"
# ctest counts the .exe files; GoogleTest counts the cases each ran under Wine.
grep -hE '^\[  (PASSED|FAILED)  \]|tests? from .* ran' "$build/Testing/Temporary/LastTest.log" || true
exit "$status"
