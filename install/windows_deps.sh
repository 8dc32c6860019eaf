#!/usr/bin/env bash
# `deps.sh --windows`: what cross-compiling tabbridge for Windows and testing
# it needs on Debian or Ubuntu, all from the distribution's packages:
# mingw-w64's GCC (posix threads), Wine (ctest runs the .exe files under
# it), and built for mingw into a cache directory outside the source tree:
# libuv (from the distribution's source package, fetched with a private apt
# configuration so the system's sources stay untouched, and patched: below)
# and GoogleTest (/usr/src/googletest). The header-only libraries
# (nlohmann/json, spdlog, fmt, Boost) are the distribution's, linked into the
# cache's include/ so the cross compiler sees them without /usr/include.
# `deps.sh --windows-package` (this script's --package): only what the zip
# needs (install/windows.sh): the compiler, libuv and the headers; no Wine,
# no GoogleTest.
#
# Each step's output goes to a log in the cache's logs/; a failing step
# prints what failed and the log's tail. Two runs at once take turns (flock
# on <cache>.lock). A second run finds everything and only says where it is.
#   TABBRIDGE_WINDOWS_DEPS  the cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/tabbridge/windows-deps)
#
# The libuv patch: libuv creates every named-pipe instance without
# PIPE_REJECT_REMOTE_CLIENTS, so the same account on another machine could
# connect over SMB. Every CreateNamedPipe[AW] call in src/win gets the flag;
# lib/libuv.patch-<n> records it (its absence rebuilds libuv.a; a change of
# the patch bumps <n>), and tests/windows/libuv_patch_test.sh checks it.
set -euo pipefail

tb_libuv_patch_stamp=libuv.patch-1

# The distribution's archives among apt source entries: debian.org and
# ubuntu.com hosts, or a mirror's /debian, /debian-security, /ubuntu or
# /ubuntu-ports directory. Third-party repositories rarely publish sources.
tb_distro_uri() {
  [[ $1 =~ ^[a-z+]+://([^/]*\.)?(debian\.org|ubuntu\.com)(/|:|$) ||
     $1 =~ ^[a-z+]+://[^/]+(/.*)?/(debian|debian-security|ubuntu|ubuntu-ports)/?$ ]]
}

# deb822 (*.sources) on stdin, the source-package entries of the
# distribution's archives on stdout: every enabled stanza with "deb" in its
# Types (or deb-src already) becomes "Types: deb-src" (its other fields,
# continuation lines and all, kept; comments go); stanzas that are disabled
# (Enabled: no), name no archive of the distribution or have no deb type go.
tb_apt_src_deb822() {
  local line stanza="" types="" uris="" enabled=yes first=1
  tb__flush_stanza() {
    local keep=0 uri
    if [[ -n $stanza && $enabled != no && (" $types " == *" deb "* || " $types " == *" deb-src "*) ]]; then
      for uri in $uris; do tb_distro_uri "$uri" && keep=1; done
    fi
    if ((keep)); then
      ((first)) || printf '\n'
      first=0
      printf '%s' "$stanza"
    fi
    stanza="" types="" uris="" enabled=yes
  }
  while IFS= read -r line || [[ -n $line ]]; do
    if [[ -z ${line//[[:space:]]/} ]]; then
      tb__flush_stanza
      continue
    fi
    [[ $line == \#* ]] && continue
    case ${line,,} in
      types:*)
        types=${line#*:}
        types=${types//$'\t'/ }
        line="Types: deb-src"
        ;;
      uris:*) uris=${line#*:} ;;
      enabled:*)
        enabled=${line#*:}
        enabled=${enabled//[[:space:]]/}
        enabled=${enabled,,}
        ;;
    esac
    stanza+="$line"$'\n'
  done
  tb__flush_stanza
}

# One-line sources (sources.list, *.list) on stdin, as deb-src lines on
# stdout: each "deb [options] URI suite components..." of the distribution's
# archives becomes "deb-src [options] URI ..."; existing deb-src lines of
# those archives stay; comments, blank lines and other repositories go.
tb_apt_src_oneline() {
  local line rest uri
  while IFS= read -r line || [[ -n $line ]]; do
    line=${line%%#*}
    [[ $line =~ ^[[:space:]]*(deb|deb-src)[[:space:]]+(.*)$ ]] || continue
    rest=${BASH_REMATCH[2]}
    uri=$rest
    if [[ $uri == \[* ]]; then
      [[ $uri == *\]* ]] || continue
      uri=${uri#*]}
    fi
    read -r uri _ <<<"$uri"
    tb_distro_uri "$uri" || continue
    rest=${rest%"${rest##*[![:space:]]}"}
    printf 'deb-src %s\n' "$rest"
  done
}

# Writes the private deb-src configuration into OUT_DIR (tabbridge-src.sources
# and tabbridge-src.list) from the system's apt sources under ETC_DIR
# (/etc/apt): sources.list, sources.list.d/*.list and sources.list.d/*.sources
# (other names, e.g. *.disabled, are not apt's). Fails, saying so, when no
# entry names the distribution's archives.
tb_apt_src_config() {
  local etc=$1 out=$2 file entries stanzas="" lines=""
  for file in "$etc"/sources.list.d/*.sources; do
    [[ -f $file ]] || continue
    entries=$(tb_apt_src_deb822 <"$file")
    [[ -n $entries ]] && stanzas+=${stanzas:+$'\n\n'}$entries
  done
  for file in "$etc/sources.list" "$etc"/sources.list.d/*.list; do
    [[ -f $file ]] || continue
    entries=$(tb_apt_src_oneline <"$file")
    [[ -n $entries ]] && lines+=${lines:+$'\n'}$entries
  done
  if [[ -z $stanzas && -z $lines ]]; then
    echo "tabbridge: no Debian or Ubuntu archive in $etc/sources.list or $etc/sources.list.d/ (*.list, *.sources):" \
      "cannot fetch libuv's source package" >&2
    return 1
  fi
  mkdir -p "$out"
  rm -f "$out/tabbridge-src.sources" "$out/tabbridge-src.list"
  [[ -z $stanzas ]] || printf '%s\n' "$stanzas" >"$out/tabbridge-src.sources"
  # The same line twice (a deb-src next to its deb) would only be a warning; once is enough.
  [[ -z $lines ]] || printf '%s\n' "$lines" | awk '!seen[$0]++' >"$out/tabbridge-src.list"
}

# Adds PIPE_REJECT_REMOTE_CLIENTS to the pipe mode of every CreateNamedPipe[AW]
# call under SOURCE/src/win, then checks that each call has it: the calls
# counted (CreateNamedPipeA( / CreateNamedPipeW(, comments aside) must equal
# the flag's occurrences, and be at least one. Fails loudly otherwise (a new
# libuv that creates pipes another way must be looked at, not shipped).
tb_patch_libuv() {
  local win=$1/src/win calls flags file
  local mode='PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT'
  for file in "$win"/*.c; do
    grep -q 'CreateNamedPipe[AW][[:space:]]*(' "$file" || continue
    grep -q 'PIPE_REJECT_REMOTE_CLIENTS' "$file" && continue  # patched before
    sed -i "s/$mode/$mode | PIPE_REJECT_REMOTE_CLIENTS/g" "$file"
  done
  calls=$(cat "$win"/*.c | grep -c 'CreateNamedPipe[AW][[:space:]]*(' || true)
  flags=$(cat "$win"/*.c | grep -c 'PIPE_REJECT_REMOTE_CLIENTS' || true)
  if [[ $calls -eq 0 || $calls -ne $flags ]]; then
    {
      echo "tabbridge: the libuv patch failed: $calls CreateNamedPipe calls in $win but $flags with" \
        "PIPE_REJECT_REMOTE_CLIENTS; each call's pipe mode must have it:"
      grep -n 'CreateNamedPipe[AW][[:space:]]*(\|PIPE_REJECT_REMOTE_CLIENTS\|PIPE_TYPE_' "$win"/*.c || true
    } >&2
    return 1
  fi
  echo "libuv: PIPE_REJECT_REMOTE_CLIENTS on all $calls CreateNamedPipe calls in src/win"
}

# tb_in_dir DIR CMD...: CMD run in DIR.
tb_in_dir() { (cd "$1" && shift && "$@"); }
# The one source package downloaded here, extracted into ./source.
tb_extract_dsc() { dpkg-source --no-check -x ./*.dsc source; }

# step NAME CMD...: runs CMD with its output in $logs/NAME.log; on failure says
# what failed and shows the log's tail, and ends the script with CMD's status.
tb_step() {
  local name=$1 log=$logs/$1.log rc=0
  shift
  printf '== %s: %s\n' "$name" "$*" >"$log"
  "$@" >>"$log" 2>&1 || rc=$?
  if ((rc != 0)); then
    {
      echo "tabbridge: step '$name' failed (exit $rc): $*"
      echo "--- the last 40 lines of $log:"
      tail -n 40 "$log"
    } >&2
    exit "$rc"
  fi
}

tb_windows_deps_main() {
  local mode=full
  case "${1:-}" in
    "") ;;
    --package) mode=package ;;
    *)
      echo "usage: windows_deps.sh [--package]" >&2
      return 2
      ;;
  esac
  prefix=${TABBRIDGE_WINDOWS_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/tabbridge/windows-deps}
  local root toolchain jobs
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  toolchain=$root/cmake/mingw-w64.cmake
  jobs=${TABBRIDGE_JOBS:-2}

  # One run at a time on this cache: a second waits for the first.
  mkdir -p "$(dirname "$prefix")"
  exec {lock_fd}>"$prefix.lock"
  if ! flock -n "$lock_fd"; then
    echo "tabbridge: waiting for another run on $prefix ($prefix.lock)"
    flock "$lock_fd"
  fi
  mkdir -p "$prefix/include" "$prefix/lib" "$prefix/src" "$prefix/logs"
  logs=$prefix/logs

  local packages=(g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 cmake ninja-build dpkg-dev
                  nlohmann-json3-dev libspdlog-dev libfmt-dev libboost-dev)
  [[ $mode == full ]] && packages+=(wine64 googletest unzip)
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    if ! command -v apt-get >/dev/null; then
      echo "tabbridge: the Windows build needs Debian's ${missing[*]}" >&2
      exit 1
    fi
    local sudo=()
    [[ $(id -u) -ne 0 ]] && sudo=(sudo)
    echo "tabbridge: installing ${missing[*]} (log: $logs/apt-install.log)"
    tb_step apt-update "${sudo[@]}" apt-get update -q
    # env after sudo: sudo's env_reset would drop a variable set before it.
    tb_step apt-install "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
  fi

  # Header-only libraries: the distribution's own headers, one directory each.
  local dir
  for dir in nlohmann spdlog fmt boost; do
    [[ -e "$prefix/include/$dir" ]] || ln -s "/usr/include/$dir" "$prefix/include/$dir"
  done

  # libuv from the distribution's source package, patched, as a static
  # library; rebuilt when the stamp of the current patch is missing.
  if [[ ! -f "$prefix/lib/libuv.a" || ! -f "$prefix/lib/$tb_libuv_patch_stamp" ]]; then
    echo "tabbridge: building libuv for mingw (logs: $logs/libuv-*.log)"
    rm -f "$prefix/lib/libuv.a" "$prefix"/lib/libuv.patch-*
    local apt_dir=$prefix/src/apt
    rm -rf "$apt_dir/sources.list.d"
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    # The distribution's own entries, as deb-src, in a private configuration.
    tb_apt_src_config /etc/apt "$apt_dir/sources.list.d"
    local apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
                    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
                    -o "APT::Sandbox::User=root")
    tb_step libuv-apt-update apt-get "${apt_opts[@]}" update
    rm -rf "$prefix/src/libuv"
    mkdir -p "$prefix/src/libuv"
    tb_step libuv-fetch tb_in_dir "$prefix/src/libuv" apt-get "${apt_opts[@]}" source --download-only libuv1
    tb_step libuv-extract tb_in_dir "$prefix/src/libuv" tb_extract_dsc
    tb_step libuv-patch tb_patch_libuv "$prefix/src/libuv/source"
    tb_step libuv-configure cmake -S "$prefix/src/libuv/source" -B "$prefix/src/libuv/build" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DLIBUV_BUILD_TESTS=OFF -DLIBUV_BUILD_BENCH=OFF
    tb_step libuv-build cmake --build "$prefix/src/libuv/build" --target uv_a -j"$jobs"
    rm -rf "$prefix/include/uv" "$prefix/include/uv.h"
    cp -r "$prefix/src/libuv/source/include/." "$prefix/include/"
    cp "$prefix/src/libuv/build/libuv_a.a" "$prefix/lib/libuv.a.new"
    mv "$prefix/lib/libuv.a.new" "$prefix/lib/libuv.a"
    # The stamp: which source was patched, and the check's words.
    {
      echo "patch: PIPE_REJECT_REMOTE_CLIENTS on every CreateNamedPipe call of src/win"
      echo "source: $prefix/src/libuv/source"
      grep -v '^==' "$logs/libuv-patch.log"
    } >"$prefix/lib/$tb_libuv_patch_stamp"
  fi

  # GoogleTest from /usr/src/googletest, static (the tests only).
  if [[ $mode == full && ! -f "$prefix/lib/cmake/GTest/GTestConfig.cmake" ]]; then
    rm -rf "$prefix/src/googletest-build"
    tb_step gtest-configure cmake -S /usr/src/googletest -B "$prefix/src/googletest-build" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_INSTALL_PREFIX="$prefix" \
      -DBUILD_GMOCK=OFF -Dgtest_disable_pthreads=OFF
    tb_step gtest-build cmake --build "$prefix/src/googletest-build" -j"$jobs"
    tb_step gtest-install cmake --install "$prefix/src/googletest-build"
  fi

  echo "tabbridge: Windows dependencies ($mode) in $prefix"
}

# Sourced (tests/windows/apt_sources_test.sh), only the functions.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  tb_windows_deps_main "$@"
fi
