#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 16, ASan + UBSan) and runs each for
# FUZZ_SECONDS (default 30) from its seed corpus in fuzz/corpus/<target>.
# Fails on any crash, sanitizer finding or leak; the input that caused it is
# left in build-fuzz/artifacts/. Longer runs: FUZZ_SECONDS=3600 fuzz/run.sh,
# or one target: fuzz/run.sh host_session_fuzz.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
seconds=${FUZZ_SECONDS:-30}
build="$repo/build-fuzz"
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(native_framer_fuzz line_framer_fuzz jsonrpc_fuzz check_arguments_fuzz policy_fuzz
                                        mcp_server_fuzz host_session_fuzz extension_link_fuzz)

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTABBRIDGE_FUZZ=ON -DTABBRIDGE_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"

mkdir -p "$build/artifacts"
failed=()
for target in "${targets[@]}"; do
  name=${target%_fuzz}
  # Work on a copy: what the fuzzer learns stays out of the source tree.
  work="$build/corpus/$name"
  mkdir -p "$work"
  cp -n "fuzz/corpus/$name"/* "$work"/ 2>/dev/null || true
  echo "fuzz: $target for ${seconds}s"
  if ! "$build/bin/$target" "$work" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$build/artifacts/$name-" -print_final_stats=1 >"$build/$name.log" 2>&1; then
    failed+=("$target")
    echo "fuzz: $target FAILED — see $build/$name.log and $build/artifacts/" >&2
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$build/$name.log" | head -20 >&2 || true
  else
    grep -E "^stat::number_of_executed_units|^Done" "$build/$name.log" | tail -1
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: clean"
