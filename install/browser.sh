#!/usr/bin/env bash
# A browser for tabbridge to drive (install.sh's step): when `tabbridge browser`
# finds no Chrome-family browser, install Debian's chromium (Ubuntu:
# chromium-browser) with apt-get, unless --no-browser. Prints which browser
# tabbridge will use.
#   install/browser.sh TABBRIDGE [--no-browser]
set -euo pipefail
tabbridge=$1
install_browser=1
[[ "${2:-}" == "--no-browser" ]] && install_browser=0

if ! "$tabbridge" browser >/dev/null 2>&1; then
  if [[ $install_browser -eq 1 ]] && command -v apt-get >/dev/null; then
    sudo=()
    [[ $(id -u) -ne 0 ]] && sudo=(sudo)
    id=$(. "${TABBRIDGE_OS_RELEASE:-/etc/os-release}" 2>/dev/null && echo "${ID:-}")
    package=chromium
    [[ "$id" == ubuntu ]] && package=chromium-browser
    echo "tabbridge: no Chrome-family browser found; installing $package (--no-browser skips this)"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$package"
  elif [[ $install_browser -eq 1 ]]; then
    echo "tabbridge: no Chrome-family browser found and no apt-get here — install Chrome or Chromium" >&2
  fi
fi
if used=$("$tabbridge" browser 2>&1); then
  echo "tabbridge will use: $used"
else
  echo "tabbridge found no browser to launch: $used"
fi
