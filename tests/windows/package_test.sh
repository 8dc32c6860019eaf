#!/usr/bin/env bash
# The Windows package (ctest: windows_package): install/windows_zip.cmake
# makes tabbridge-windows.zip from the built programs, and its listing
# (unzip -l) must hold tabbridge.exe and tabbridge-host.exe (each a PE32+
# x86-64 file, stripped: no .debug_* section), install.ps1 and uninstall.ps1
# (which call register and unregister), and every file of extension/; the
# libuv they link rejects remote pipe clients (libuv_patch_test.sh).
# Skipped (77) until both programs are built.
#   package_test.sh BIN_DIR SOURCE_DIR
set -euo pipefail

bin=$1
source=$2
for exe in tabbridge.exe tabbridge-host.exe; do
  if [[ ! -f $bin/$exe ]]; then
    echo "SKIP: $bin/$exe is not built"
    exit 77
  fi
done
work=$(mktemp -d /tmp/tb-windows-package-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

zip=$work/tabbridge-windows.zip
cmake -DBIN="$bin" -DZIP="$zip" -P "$source/install/windows_zip.cmake"
unzip -l "$zip"
listing=$(unzip -Z1 "$zip")

expected=(tabbridge.exe tabbridge-host.exe install.ps1 uninstall.ps1)
while IFS= read -r file; do expected+=("$file"); done < <(cd "$source" && find extension -type f | sort)
for file in "${expected[@]}"; do
  grep -qxF "$file" <<<"$listing" || fail "$file is not in the zip"
done
[[ $(grep -cv '/$' <<<"$listing") == "${#expected[@]}" ]] || fail "the zip holds files it should not: $listing"

# A PE file: "MZ", then at the offset in bytes 60..63 "PE\0\0" and machine 0x8664 (x86-64).
for exe in tabbridge.exe tabbridge-host.exe; do
  unzip -p "$zip" "$exe" >"$work/$exe"
  [[ $(head -c 2 "$work/$exe") == MZ ]] || fail "$exe does not start with MZ"
  offset=$(od -An -tu4 -j60 -N4 "$work/$exe" | tr -d ' ')
  signature=$(od -An -tx1 -j"$offset" -N6 "$work/$exe" | tr -d ' \n')
  [[ $signature == 504500006486 ]] || fail "$exe is not a PE x86-64 file (at $offset: $signature)"
  sections=$(x86_64-w64-mingw32-objdump -h "$work/$exe")
  grep -q ' \.text ' <<<"$sections" || fail "objdump -h lists no .text in $exe: $sections"
  if grep -q ' \.debug_' <<<"$sections"; then
    fail "$exe in the zip is not stripped: $(grep -o '\.debug_[a-z_]*' <<<"$sections" | tr '\n' ' ')"
  fi
  built=$(x86_64-w64-mingw32-objdump -h "$bin/$exe" | grep -c ' \.debug_' || true)
  echo "$exe: PE x86-64, $(stat -c %s "$work/$exe") bytes (built: $(stat -c %s "$bin/$exe") bytes," \
    "$built .debug_* sections), no .debug_* section"
done

# The host in the zip links the deps cache's libuv: the one patched with
# PIPE_REJECT_REMOTE_CLIENTS (libuv_patch_test.sh), read from this build's cache.
deps=$(sed -n 's/^TABBRIDGE_WINDOWS_DEPS:PATH=//p' "$bin/../CMakeCache.txt")
[[ -n $deps ]] || fail "no TABBRIDGE_WINDOWS_DEPS in $bin/../CMakeCache.txt"
bash "$source/tests/windows/libuv_patch_test.sh" "$deps"
for exe in tabbridge.exe tabbridge-host.exe; do
  [[ ! $deps/lib/libuv.a -nt $bin/$exe ]] || fail "$bin/$exe was linked before the patched libuv.a: build again"
done

# shellcheck disable=SC2016 # PowerShell's $exe, literally
unzip -p "$zip" install.ps1 | grep -q '& \$exe register' || fail "install.ps1 does not run tabbridge.exe register"
# shellcheck disable=SC2016
unzip -p "$zip" uninstall.ps1 | grep -q '& \$exe unregister' || fail "uninstall.ps1 does not run tabbridge.exe unregister"
echo "== the zip holds the ${#expected[@]} files"

# Unzipped, tabbridge.exe finds the extension next to itself (as install.ps1
# leaves it in %LOCALAPPDATA%\tabbridge), with no TABBRIDGE_EXTENSION_DIR, in
# a folder whose name the ANSI code page cannot spell (the UTF-8 manifest,
# cmake/windows_utf8.manifest, makes its narrow paths UTF-8).
folder="$work/Zoë-Ω"
mkdir "$folder"
(cd "$folder" && unzip -q "$zip")
doctor=$(cd "$folder" && { env -u TABBRIDGE_EXTENSION_DIR WINEDEBUG=-all /usr/lib/wine/wine64 ./tabbridge.exe doctor 2>&1 || true; })
grep -q 'extension: .*Zoë-Ω.extension (ID ' <<<"$doctor" || fail "doctor did not find the extension next to tabbridge.exe: $doctor"
echo "== unzipped into $folder, tabbridge.exe doctor finds its extension"
