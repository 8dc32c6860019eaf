#!/usr/bin/env bash
# One command from a checkout to a working tabbridge:
#   install/install.sh [--prefix DIR] [--no-browser]
#       build deps, build, install, register with every browser found; with no
#       Chrome-family browser on a Debian/Ubuntu machine, install Debian's
#       chromium first (--no-browser: do not)
#   install/install.sh --uninstall [--prefix DIR]
# The prefix defaults to ~/.local (binaries in ~/.local/bin).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
prefix="$HOME/.local"
uninstall=0
install_browser=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --uninstall) uninstall=1; shift ;;
    --no-browser) install_browser=0; shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

if [[ $uninstall -eq 1 ]]; then
  if [[ -x "$prefix/bin/tabbridge" ]]; then "$prefix/bin/tabbridge" unregister; fi
  rm -f "$prefix/bin/tabbridge" "$prefix/bin/tabbridge-host"
  rm -rf "$prefix/share/tabbridge"
  echo "tabbridge removed from $prefix (the launch profile in ~/.local/share/tabbridge/profile is kept; delete it if you like)"
  exit 0
fi

"$repo/install/deps.sh"
build="$repo/build-release"
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTABBRIDGE_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)"
cmake --install "$build" --prefix "$prefix" >/dev/null

# A browser to drive (Debian's chromium when there is none; --no-browser: not).
browser_args=()
[[ $install_browser -eq 0 ]] && browser_args=(--no-browser)
"$repo/install/browser.sh" "$prefix/bin/tabbridge" "${browser_args[@]}" >&2
"$prefix/bin/tabbridge" register

cat <<MSG

tabbridge is installed in $prefix/bin. Two steps remain:
  1. Load the extension: open chrome://extensions, turn on Developer mode,
     click "Load unpacked" and choose $prefix/share/tabbridge/extension
     (or skip this and let connect_browser {launch: true} start a browser with it).
  2. Add it to your MCP client, e.g.:
       claude mcp add tabbridge -- $prefix/bin/tabbridge
Check the setup at any time with: $prefix/bin/tabbridge doctor
MSG
# The closing lines: which browser connect_browser {launch: true} starts, and how.
printf 'Browser: '
"$prefix/bin/tabbridge" browser 2>&1 || true
