#!/usr/bin/env bash
# Builds the Debian package from a configured, built build directory
# (`cpack -G DEB`, the same CMake targets as `cmake --install`), unpacks it
# into a scratch root with dpkg-deb (no container, nothing installed on this
# machine) and checks its files, its control data and every native-messaging
# manifest it carries (check_deb.mjs).
#   tests/package/deb_test.sh BUILD_DIR [CPACK]
set -euo pipefail
build=$(cd "${1:?usage: deb_test.sh BUILD_DIR}" && pwd)
cpack=${2:-cpack}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tb-deb-XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! (cd "$build" && "$cpack" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1); then
  cat "$work/cpack.log" >&2
  exit 1
fi
debs=("$work"/out/*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || { echo "expected one .deb in $work/out" >&2; ls -l "$work/out" >&2; exit 1; }
deb=${debs[0]}
echo "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

dpkg-deb -x "$deb" "$work/root"
dpkg-deb -e "$deb" "$work/control"
dpkg-deb --field "$deb" Package Version Architecture Depends

# The unpacked programs run, and the packaged shim prints the manifest the
# package ships (its template, its extension's ID) for the packaged host.
"$work/root/usr/bin/tabbridge" --version
TABBRIDGE_EXTENSION_DIR= "$work/root/usr/bin/tabbridge" register --print --host-path /usr/bin/tabbridge-host \
  >"$work/printed.json"

node "$here/check_deb.mjs" "$work/root" "$work/control" "$work/printed.json"
