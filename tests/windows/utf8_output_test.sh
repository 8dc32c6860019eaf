#!/usr/bin/env bash
# tabbridge.exe's output bytes under Wine (ctest: windows_utf8_output): run
# from a directory named "Zoë Doe", `tabbridge.exe wsl` writes its path to a
# pipe as UTF-8 — what PowerShell's `& $exe wsl` and the MCP channel get,
# never the ANSI or OEM code page's "Zo\xEB"/"Zo\x89" — and a non-ASCII
# argument comes back on stderr as the same UTF-8 (argv is UTF-8 through the
# manifest, cmake/windows_utf8.manifest; Wine's own ANSI code page is 1252).
# No console here (stdout and stderr are files), so the console's code page
# is left alone (console.h); that branch is only unit-tested.
#   utf8_output_test.sh TABBRIDGE.exe
set -euo pipefail

exe=$1
wine=/usr/lib/wine/wine64
export WINEDEBUG=-all
[[ -f $exe ]] || { echo "no $exe: skipped"; exit 77; }
dir=$(mktemp -d /tmp/tb-utf8-XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/Zoë Doe"
cp "$exe" "$dir/Zoë Doe/tabbridge.exe"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Wine maps / to Z:, so WSL would see this tabbridge.exe under /mnt/z.
"$wine" "$dir/Zoë Doe/tabbridge.exe" wsl >"$dir/out" 2>"$dir/err" || fail "tabbridge.exe wsl: $(cat "$dir/err")"
expected="claude mcp add tabbridge -- '/mnt/z$dir/Zoë Doe/tabbridge.exe' --wsl-distro \"\$WSL_DISTRO_NAME\""
actual=$(tr -d '\r' <"$dir/out")
[[ $actual == "$expected" ]] || fail "tabbridge.exe wsl printed: $(od -c "$dir/out" | head -20) — expected: $expected"
# "ë" as UTF-8 (c3 ab), byte for byte.
od -An -tx1 "$dir/out" | tr -d ' \n' | grep -q '5a6fc3ab20446f65' || fail "no UTF-8 \"Zoë Doe\" in the bytes"
echo "tabbridge.exe wsl: $actual"

status=0
"$wine" "$dir/Zoë Doe/tabbridge.exe" --upload-root "Zoë Doe/none" >"$dir/out" 2>"$dir/err" || status=$?
[[ $status == 2 ]] || fail "--upload-root of a missing directory: exit $status"
[[ ! -s $dir/out ]] || fail "stdout (the MCP channel) got: $(cat "$dir/out")"
grep -qF -- '--upload-root Zoë Doe/none is not a directory' "$dir/err" ||
  fail "the argument did not come back as UTF-8: $(od -c "$dir/err" | head)"
echo "stderr: $(tr -d '\r' <"$dir/err")"
echo PASS
