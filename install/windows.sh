#!/usr/bin/env bash
# The Windows package, in one command from a clean clone on Debian or Ubuntu:
# installs only what the package needs (install/deps.sh --windows-package:
# mingw-w64 and libuv for mingw, cached outside the tree; no Wine, no
# GoogleTest), builds tabbridge.exe and tabbridge-host.exe (Release, tests
# off: -DTABBRIDGE_TESTS=OFF) in build-windows, and writes
# build-windows/tabbridge-windows.zip (install/windows_zip.cmake): the two
# programs, stripped, extension/, install.ps1 and uninstall.ps1. On Windows:
# unzip, then `powershell -ExecutionPolicy Bypass -File install.ps1`
# (docs/windows.md). tests/windows/run.sh builds the same directory with the
# tests on again.
#   install/windows.sh [build dir]   (default: build-windows in the source tree)
#   TABBRIDGE_JOBS=n                 parallel compile jobs (default 2)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-windows}
jobs=${TABBRIDGE_JOBS:-2}

bash "$root/install/deps.sh" --windows-package
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" -DCMAKE_BUILD_TYPE=Release \
  -DTABBRIDGE_TESTS=OFF
cmake --build "$build" -j"$jobs" --target tabbridge tabbridge-host
cmake -DBIN="$build/bin" -DZIP="$build/tabbridge-windows.zip" -P "$root/install/windows_zip.cmake"
echo "tabbridge: $build/tabbridge-windows.zip — on Windows: unzip it, then"
echo "  powershell -ExecutionPolicy Bypass -File install.ps1"
