#!/usr/bin/env bash
# The Windows package, in one command from a clean clone on Debian: installs
# what the cross build needs (install/deps.sh --windows: mingw-w64, Wine,
# libuv and GoogleTest for mingw, cached outside the tree), builds
# tabbridge.exe and tabbridge-host.exe (Release) in build-windows, and writes
# build-windows/tabbridge-windows.zip (install/windows_zip.cmake): the two
# programs, extension/, install.ps1 and uninstall.ps1. On Windows: unzip,
# then `powershell -ExecutionPolicy Bypass -File install.ps1` (docs/windows.md).
#   install/windows.sh [build dir]   (default: build-windows in the source tree)
#   TABBRIDGE_JOBS=n                 parallel compile jobs (default 2)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-windows}
jobs=${TABBRIDGE_JOBS:-2}

bash "$root/install/deps.sh" --windows
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$jobs" --target tabbridge tabbridge-host
cmake -DBIN="$build/bin" -DZIP="$build/tabbridge-windows.zip" -P "$root/install/windows_zip.cmake"
echo "tabbridge: $build/tabbridge-windows.zip — on Windows: unzip it, then"
echo "  powershell -ExecutionPolicy Bypass -File install.ps1"
