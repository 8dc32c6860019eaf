#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 16, ASan + UBSan) and runs each for
# FUZZ_SECONDS (default 30) from its seed corpus in fuzz/corpus/<target>,
# FUZZ_JOBS (default 1) targets at a time.
# Fails on any crash, sanitizer finding or leak; the input that caused it is
# left in build-fuzz/artifacts/. Longer runs: FUZZ_SECONDS=3600 fuzz/run.sh,
# or one target: fuzz/run.sh host_session_fuzz. `fuzz/run.sh --build-only`
# builds and runs nothing (tests/run_all.sh builds in the background).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
seconds=${FUZZ_SECONDS:-30}
parallel=${FUZZ_JOBS:-1}
build="$repo/build-fuzz"
build_only=false
if [[ "${1:-}" == "--build-only" ]]; then
  build_only=true
  shift
fi
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(native_framer_fuzz line_framer_fuzz jsonrpc_fuzz check_arguments_fuzz policy_fuzz
                                        mcp_server_fuzz host_session_fuzz extension_link_fuzz)

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTABBRIDGE_FUZZ=ON -DTABBRIDGE_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"

$build_only && exit 0

mkdir -p "$build/artifacts"
# fuzz_one TARGET: one target's run; its status is the fuzzer's.
fuzz_one() {
  local target=$1 name=${1%_fuzz}
  # Work on a copy: what the fuzzer learns stays out of the source tree.
  local work="$build/corpus/$name"
  mkdir -p "$work"
  cp -n "fuzz/corpus/$name"/* "$work"/ 2>/dev/null || true
  "$build/bin/$target" "$work" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/$name-" -print_final_stats=1 >"$build/$name.log" 2>&1
}

declare -A running=()  # pid -> target
failed=()
# reap: waits for one running target and reports it.
reap() {
  local pid status=0
  wait -n -p pid "${!running[@]}" || status=$?
  local target=${running[$pid]} name=${running[$pid]%_fuzz}
  unset "running[$pid]"
  if [[ $status -ne 0 ]]; then
    failed+=("$target")
    echo "fuzz: $target FAILED — see $build/$name.log and $build/artifacts/" >&2
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$build/$name.log" | head -20 >&2 || true
  else
    echo "fuzz: $target: $(grep -E "^stat::number_of_executed_units|^Done" "$build/$name.log" | tail -1)"
  fi
}
for target in "${targets[@]}"; do
  [[ ${#running[@]} -ge $parallel ]] && reap
  echo "fuzz: $target for ${seconds}s"
  fuzz_one "$target" &
  running[$!]=$target
done
while [[ ${#running[@]} -gt 0 ]]; do reap; done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: clean"
