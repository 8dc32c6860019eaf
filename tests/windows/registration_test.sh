#!/usr/bin/env bash
# Registration's HKCU keys for real under Wine (ctest: windows_registration).
# In a throwaway WINEPREFIX: the Windows registry code points every browser's
# NativeMessagingHosts\com.tabbridge.host key at a manifest; Wine's own
# `reg query` reads each default value back; doctor's reading says "ours"
# with the file there and "missing-file" without it; delete removes every
# key, which `reg query` then no longer finds. Then the same through
# `tabbridge.exe register` / `unregister` (the manifest written to
# %LOCALAPPDATA%\tabbridge, naming tabbridge-host.exe), once tabbridge.exe
# is built; unregister removes only the keys that name this install's
# manifest (in any case), and leaves one that names another install's.
#   registration_test.sh PROBE.exe TABBRIDGE.exe EXTENSION_DIR
set -euo pipefail

probe=$1
tabbridge=$2
extension=$3
wine=/usr/lib/wine/wine64
export WINEDEBUG=-all WINEPREFIX
WINEPREFIX=$(mktemp -d /tmp/tb-wine-registration-XXXXXX)
# The prefix's Windows user, so %LOCALAPPDATA% has a space and a non-ASCII letter.
export USER='Zoë Doe' LOGNAME='Zoë Doe'
cleanup() {
  /usr/lib/wine/wineserver -k 2>/dev/null || true
  rm -rf "$WINEPREFIX"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

keys=(
  'Software\Google\Chrome\NativeMessagingHosts\com.tabbridge.host'
  'Software\Chromium\NativeMessagingHosts\com.tabbridge.host'
  'Software\Microsoft\Edge\NativeMessagingHosts\com.tabbridge.host'
  'Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\com.tabbridge.host'
  'Software\Vivaldi\NativeMessagingHosts\com.tabbridge.host'
)
# The manifest's place in %LOCALAPPDATA%\tabbridge (UTF-16 both ways).
manifest_dir="$WINEPREFIX/drive_c/users/Zoë Doe/AppData/Local/tabbridge"
manifest='C:\users\Zoë Doe\AppData\Local\tabbridge\com.tabbridge.host.json'

# reg writes to a pipe in the OEM code page (437 here): iconv makes it UTF-8 again.
reg_query() {
  local out status=0
  out=$("$wine" reg query "HKCU\\$1" /ve 2>&1) || status=$?
  tr -d '\r' <<<"$out" | iconv -f CP437 -t UTF-8
  return "$status"
}

echo "== point (WINEPREFIX=$WINEPREFIX)"
"$wine" "$probe" point "$manifest" | tr -d '\r'
for key in "${keys[@]}"; do
  out=$(reg_query "$key") || fail "reg query HKCU\\$key: $out"
  grep -qF "REG_SZ    $manifest" <<<"$out" || fail "HKCU\\$key's default value is not $manifest: $out"
  echo "reg query HKCU\\$key: REG_SZ $manifest"
done

echo "== read, no manifest file yet"
out=$("$wine" "$probe" read "$manifest" | tr -d '\r')
echo "$out"
[[ $(grep -cF ": missing-file $manifest" <<<"$out") == 5 ]] || fail "every key should point at a missing file"

echo "== read, with the manifest file"
mkdir -p "$manifest_dir"
echo '{}' >"$manifest_dir/com.tabbridge.host.json"
out=$("$wine" "$probe" read "$manifest" | tr -d '\r')
echo "$out"
[[ $(grep -cF ": ours $manifest" <<<"$out") == 5 ]] || fail "every key should be ours"

echo "== delete"
"$wine" "$probe" delete | tr -d '\r'
for key in "${keys[@]}"; do
  if out=$(reg_query "$key"); then fail "HKCU\\$key is still there: $out"; fi
done
# The parent keys stay (the browser's own), only ours went.
reg_query 'Software\Google\Chrome\NativeMessagingHosts' >/dev/null || fail "the NativeMessagingHosts key itself went"
out=$("$wine" "$probe" read "$manifest" | tr -d '\r')
[[ $(grep -c ": absent" <<<"$out") == 5 ]] || fail "every key should be absent: $out"
echo "== all 5 keys set, read back by reg query, removed"

# register and unregister as tabbridge.exe runs them; the probe runs the same
# functions (register_command_windows.cpp) until tabbridge.exe is built.
if [[ -f $tabbridge ]]; then
  register=("$tabbridge" register)
  unregister=("$tabbridge" unregister)
else
  echo "NOTE: $tabbridge is not built: register and unregister run through the probe"
  register=("$probe" register --host-path 'C:\Program Files\tabbridge\tabbridge-host.exe')
  unregister=("$probe" unregister)
fi
echo "== register: ${register[*]}"
# Wine maps / to Z:. The user's %LOCALAPPDATA% is the prefix's (the user set above).
export TABBRIDGE_EXTENSION_DIR="Z:${extension//\//\\}"
"$wine" "${register[@]}" | tr -d '\r'
[[ -f $manifest_dir/com.tabbridge.host.json ]] || fail "no manifest in $manifest_dir"
cat "$manifest_dir/com.tabbridge.host.json"
grep -qE '"path": "[A-Z]:\\\\.*tabbridge-host\.exe"' "$manifest_dir/com.tabbridge.host.json" ||
  fail "the manifest does not name tabbridge-host.exe by an absolute path"
grep -qF '"chrome-extension://adpkeaffmapkegingficmdcbffgoapmk/"' "$manifest_dir/com.tabbridge.host.json" ||
  fail "the manifest does not allow the tabbridge extension"
for key in "${keys[@]}"; do
  out=$(reg_query "$key") || fail "reg query HKCU\\$key: $out"
  grep -qF "REG_SZ    $manifest" <<<"$out" || fail "HKCU\\$key's default value is not $manifest: $out"
done
echo "reg query: all 5 keys name $manifest"
echo "== doctor's registration step"
out=$("$wine" "$probe" doctor | tr -d '\r') || true
echo "$out"
[[ $(grep -c '^ok    .*: HKCU\\.* -> ' <<<"$out") == 5 ]] || fail "doctor should find all 5 keys ours"
if [[ -f $(dirname "$tabbridge")/tabbridge-host.exe ]]; then
  grep -q '^ok    manifest: ' <<<"$out" || fail "doctor should find the manifest right"
else  # the probe named a host that is not there
  grep -q '^FAIL  manifest: .*tabbridge-host.exe, which is not an executable' <<<"$out" ||
    fail "doctor missed the missing host"
fi
echo "== unregister: only the keys that point at this install's manifest"
# Four keys name our manifest in another spelling (lower case, '/': Windows
# paths are case-insensitive), which is still ours; Vivaldi's names another
# install's manifest, which unregister must leave, and say so.
variant=${manifest//\\//}
variant=${variant,,}
"$wine" "$probe" point "$variant" | tr -d '\r' >/dev/null
other='D:\other install\tabbridge\com.tabbridge.host.json'
vivaldi=${keys[4]}
"$wine" reg add "HKCU\\$vivaldi" /ve /d "$other" /f | tr -d '\r'
out=$(reg_query "$vivaldi") || fail "reg query HKCU\\$vivaldi: $out"
grep -qF "REG_SZ    $other" <<<"$out" || fail "could not point Vivaldi's key elsewhere: $out"
out=$("$wine" "${unregister[@]}" | tr -d '\r')
echo "$out"
for key in "${keys[@]:0:4}"; do
  if found=$(reg_query "$key"); then fail "HKCU\\$key (pointing at $variant) is still there: $found"; fi
done
found=$(reg_query "$vivaldi") || fail "unregister removed HKCU\\$vivaldi, which points at another install: $found"
grep -qF "REG_SZ    $other" <<<"$found" || fail "HKCU\\$vivaldi changed: $found"
grep -qF "left HKCU\\$vivaldi (Vivaldi): it points at $other, not at this install's $manifest" <<<"$out" ||
  fail "unregister did not say it left Vivaldi's key"
[[ $(grep -c '^removed HKCU' <<<"$out") == 4 ]] || fail "unregister should say it removed 4 keys: $out"
echo "the key pointing at another install's manifest survived unregister, and was named"
"$wine" reg delete "HKCU\\$vivaldi" /f | tr -d '\r'
[[ ! -e $manifest_dir/com.tabbridge.host.json ]] || fail "unregister left the manifest"
out=$("$wine" "$probe" doctor | tr -d '\r') && fail "doctor passed with nothing registered: $out"
[[ $(grep -c '^FAIL  .*: HKCU\\.* is absent' <<<"$out") == 5 ]] || fail "doctor should find all 5 keys absent: $out"
grep -q '^FAIL  manifest: .* is missing' <<<"$out" || fail "doctor should find the manifest missing: $out"
echo "doctor: the manifest and all 5 keys absent"
echo "== register and unregister: the manifest and the 5 keys written, read back, removed"
