#!/usr/bin/env bash
# Installs the Debian packages tabbridge needs: `deps.sh` for building,
# `deps.sh --test` also for the tests (Chromium, Node.js), `deps.sh --windows`
# what cross-compiling for Windows and its tests under Wine need, and
# `deps.sh --windows-package` only what the Windows zip needs (no Wine, no
# GoogleTest; install/windows.sh) (install/windows_deps.sh). Does nothing where
# everything is present already, and nothing on systems without apt-get.
# On macOS it installs the same libraries with Homebrew.
set -euo pipefail

# --windows: the mingw-w64 cross toolchain, Wine and the Windows libraries (install/windows_deps.sh);
# --windows-package: the toolchain, libuv and the header libraries only.
[[ "${1:-}" == "--windows" ]] && exec bash "$(dirname "${BASH_SOURCE[0]}")/windows_deps.sh"
[[ "${1:-}" == "--windows-package" ]] && exec bash "$(dirname "${BASH_SOURCE[0]}")/windows_deps.sh" --package

if [[ $(uname -s) == Darwin ]]; then
  # macOS: Homebrew's formulae (Xcode's command-line tools bring the compiler).
  formulae=(cmake pkg-config libuv nlohmann-json spdlog boost)
  [[ "${1:-}" == "--test" ]] && formulae+=(googletest node)
  if ! command -v brew >/dev/null; then
    echo "tabbridge: please install Homebrew (https://brew.sh) or: ${formulae[*]}" >&2
    exit 1
  fi
  missing=()
  for f in "${formulae[@]}"; do brew list --formula "$f" >/dev/null 2>&1 || missing+=("$f"); done
  [[ ${#missing[@]} -eq 0 ]] || brew install "${missing[@]}"
  exit 0
fi

packages=(build-essential cmake pkg-config nlohmann-json3-dev libuv1-dev libboost-dev libspdlog-dev)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(googletest chromium clang-16 libclang-rt-16-dev clang-format-16 ccache)  # clang: the libFuzzer targets (fuzz/); clang-format: tests/lint.sh; ccache: CMakeLists.txt
  packages+=(xvfb xdotool)  # a display for the headful browser of the person's surface (tests/e2e/lib/xvfb.mjs), a real pointer on it (lib/pointer.mjs)
  packages+=(openssh-server openssh-client)  # the remote-dev-box walk: a real sshd forwarding the socket (tests/e2e/remote.test.mjs)
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "tabbridge: please install: ${missing[*]} (or their equivalents: cmake, libuv, nlohmann-json, spdlog, boost)" >&2
  exit 1
fi
sudo=()
[[ $(id -u) -ne 0 ]] && sudo=(sudo)
echo "tabbridge: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
