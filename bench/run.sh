#!/usr/bin/env bash
# Builds tabbridge in Release and prints its performance figures as a table.
# Usage: bash bench/run.sh   (from anywhere; build dir: $TABBRIDGE_BENCH_BUILD_DIR
# or <repo>/build-bench). Figures only: nothing here passes or fails on time.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TABBRIDGE_BENCH_BUILD_DIR:-$root/build-bench}
runs=${BENCH_STARTUP_RUNS:-50}
calls=${BENCH_CALLS:-5000}
opens=${BENCH_OPENS:-1000}

echo "building Release in $build ..." >&2
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTABBRIDGE_SANITIZE=OFF -DTABBRIDGE_TESTS=ON >/dev/null
cmake --build "$build" -j2 --target tabbridge tabbridge-host bench_startup bench_roundtrip bench_policy >/dev/null

echo
echo "tabbridge $(git -C "$root" describe --always --dirty 2>/dev/null || echo '?'), $(nproc) CPUs, $(uname -sr)"
echo
echo "| figure | value | target |"
echo "|---|---|---|"
"$build/bin/bench_startup" --runs "$runs"
"$build/bin/bench_roundtrip" --calls "$calls" --opens "$opens"
"$build/bin/bench_policy"
echo
echo "binary sizes: tabbridge $(du -h "$build/bin/tabbridge" | cut -f1), tabbridge-host $(du -h "$build/bin/tabbridge-host" | cut -f1)"

# Page tools through real headless Chromium (needs `npm ci` in tests/e2e).
if [[ -d "$root/tests/e2e/node_modules" ]] && command -v node >/dev/null; then
  echo
  node "$root/bench/page_bench.mjs" "$build"
  echo
  node "$root/bench/own_tools_bench.mjs" "$build"   # the page's own tools (WebMCP) vs snapshot+click+type
  echo
  # SOAK_SESSIONS (20) shims × SOAK_CALLS (500) page-tool calls, each answer checked against its own tab
  node "$root/bench/soak.mjs" "$build" || echo "(soak: errors or misrouted answers, listed above)"
  echo
  node "$root/bench/deadline_bench.mjs" "$build"    # answers on a hung renderer, a slow page, a 204
  node "$root/bench/person_click.mjs" "$build"      # the first click where the debugger bar comes (the person's browser)
  echo
  # Side by side with Playwright MCP and chrome-devtools-mcp (pinned in bench/peers): speed and browser memory
  if [[ -d "$root/bench/peers/node_modules" ]]; then
    node "$root/bench/first_page.mjs" "$build"   # spawn to the first page answered, with our timeline
    echo
    node "$root/bench/peers.mjs" "$build"
    echo
    node "$root/bench/scale.mjs" "$build"   # snapshot time and bytes on 100 / 1,000 / 10,000 rows and swagger-ui
    echo
    node "$root/bench/tasks.mjs" "$build"   # whole tasks: calls, bytes the model reads, tools/list, PASS/FAIL
  else
    echo "(peer figures skipped: run 'cd bench/peers && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci')"
  fi
else
  echo "(page-tool figures skipped: run 'cd tests/e2e && npm ci' and install chromium)"
fi
