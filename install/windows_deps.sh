#!/usr/bin/env bash
# `deps.sh --windows`: what cross-compiling tabbridge for Windows needs on
# Debian, all from Debian's packages: mingw-w64's GCC (posix threads), Wine
# (ctest runs the .exe files under it), and built for mingw into a cache
# directory outside the source tree: libuv (from Debian's source package,
# fetched with a private apt configuration so the system's sources stay
# untouched) and GoogleTest (/usr/src/googletest). The header-only libraries
# (nlohmann/json, spdlog, fmt, Boost) are Debian's, linked into the cache's
# include/ so the cross compiler sees them without /usr/include.
# A second run finds everything and only says where it is.
#   TABBRIDGE_WINDOWS_DEPS  the cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/tabbridge/windows-deps)
set -euo pipefail

prefix=${TABBRIDGE_WINDOWS_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/tabbridge/windows-deps}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
toolchain=$root/cmake/mingw-w64.cmake
jobs=${TABBRIDGE_JOBS:-2}

packages=(g++-mingw-w64-x86-64-posix wine64 cmake ninja-build dpkg-dev googletest
          nlohmann-json3-dev libspdlog-dev libfmt-dev libboost-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  if ! command -v apt-get >/dev/null; then
    echo "tabbridge: the Windows build needs Debian's ${missing[*]}" >&2
    exit 1
  fi
  sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  echo "tabbridge: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

mkdir -p "$prefix/include" "$prefix/lib" "$prefix/src"

# Header-only libraries: Debian's own headers, one directory each.
for dir in nlohmann spdlog fmt boost; do
  [[ -e "$prefix/include/$dir" ]] || ln -s "/usr/include/$dir" "$prefix/include/$dir"
done

# libuv from Debian's source package (the version Debian ships), as a static library.
if [[ ! -f "$prefix/lib/libuv.a" ]]; then
  apt_dir=$prefix/src/apt
  mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  # Debian's own entries, as deb-src, in a private configuration.
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
    > "$apt_dir/sources.list.d/debian-src.sources"
  apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
            -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
            -o "APT::Sandbox::User=root")
  apt-get "${apt_opts[@]}" update -qq
  rm -rf "$prefix/src/libuv"
  mkdir -p "$prefix/src/libuv"
  (cd "$prefix/src/libuv" && apt-get "${apt_opts[@]}" source -qq --download-only libuv1 &&
     dpkg-source --no-check -x ./*.dsc source >/dev/null)
  cmake -S "$prefix/src/libuv/source" -B "$prefix/src/libuv/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DLIBUV_BUILD_TESTS=OFF -DLIBUV_BUILD_BENCH=OFF >/dev/null
  cmake --build "$prefix/src/libuv/build" --target uv_a -j"$jobs" >/dev/null
  rm -rf "$prefix/include/uv" "$prefix/include/uv.h"
  cp -r "$prefix/src/libuv/source/include/." "$prefix/include/"
  cp "$prefix/src/libuv/build/libuv_a.a" "$prefix/lib/libuv.a"
fi

# GoogleTest from Debian's /usr/src/googletest, static.
if [[ ! -f "$prefix/lib/cmake/GTest/GTestConfig.cmake" ]]; then
  rm -rf "$prefix/src/googletest-build"
  cmake -S /usr/src/googletest -B "$prefix/src/googletest-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_GMOCK=OFF \
    -Dgtest_disable_pthreads=OFF >/dev/null
  cmake --build "$prefix/src/googletest-build" -j"$jobs" >/dev/null
  cmake --install "$prefix/src/googletest-build" >/dev/null
fi

echo "tabbridge: Windows dependencies in $prefix"
