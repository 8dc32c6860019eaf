#!/usr/bin/env bash
# install/browser.sh: with no browser, install.sh installs Debian's chromium
# (Ubuntu: chromium-browser) through apt-get; --no-browser does not; a machine
# with a browser is left alone; the last line says which browser is used.
# apt-get, sudo and tabbridge are stand-ins that record what they were asked.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/bin"
cat >"$work/bin/tabbridge" <<STUB
#!/bin/sh
[ "\$1" = browser ] || exit 2
if [ -e "$work/installed" ]; then echo "/usr/bin/chromium (connect_browser {launch: true} starts it)"; exit 0; fi
echo "no Chrome-family browser found on PATH" >&2; exit 1
STUB
cat >"$work/bin/apt-get" <<STUB
#!/bin/sh
echo "apt-get \$*" >>"$work/apt.log"
case "\$*" in *install*) touch "$work/installed" ;; esac
STUB
printf '#!/bin/sh\nexec "$@"\n' >"$work/bin/sudo"
chmod +x "$work/bin/"*
export PATH="$work/bin:$PATH"

run() { rm -f "$work/apt.log"; "$repo/install/browser.sh" "$work/bin/tabbridge" "$@"; }

# 1. No browser, Debian: chromium is installed, and the last line names it.
printf 'ID=debian\n' >"$work/os-release"
export TABBRIDGE_OS_RELEASE="$work/os-release"
rm -f "$work/installed"
out=$(run)
grep -q "apt-get install -y -qq chromium$" "$work/apt.log" || fail "chromium not installed: $(cat "$work/apt.log")"
[[ $(tail -n 1 <<<"$out") == "tabbridge will use: /usr/bin/chromium"* ]] || fail "last line: $out"

# 2. Ubuntu's package is chromium-browser.
printf 'ID=ubuntu\nID_LIKE=debian\n' >"$work/os-release"
rm -f "$work/installed"
run >/dev/null
grep -q "install -y -qq chromium-browser$" "$work/apt.log" || fail "ubuntu: $(cat "$work/apt.log")"

# 3. --no-browser: nothing installed, and it says no browser was found.
rm -f "$work/installed"
out=$(run --no-browser)
[[ ! -e "$work/apt.log" ]] || fail "--no-browser ran apt-get: $(cat "$work/apt.log")"
[[ $(tail -n 1 <<<"$out") == "tabbridge found no browser to launch: no Chrome-family browser found on PATH" ]] || fail "no-browser: $out"

# 4. A browser already there: apt-get is not called.
touch "$work/installed"
out=$(run)
[[ ! -e "$work/apt.log" ]] || fail "a machine with a browser ran apt-get"
[[ $(tail -n 1 <<<"$out") == "tabbridge will use: /usr/bin/chromium"* ]] || fail "present: $out"
echo "install/browser.sh: ok"
