#!/usr/bin/env bash
# install/windows_deps.sh's pure parts (ctest: windows_deps_functions).
# The private deb-src configuration: the system's apt sources, in either
# format, turned into source-package entries of the distribution's archives
# (samples of Debian's and Ubuntu's deb822 files (*.sources) and one-line
# files (sources.list, *.list), with third-party repositories, a disabled
# stanza, comments and an embedded key, each compared with the exact
# output). The libuv patch: every CreateNamedPipe call's pipe mode gets
# PIPE_REJECT_REMOTE_CLIENTS, and a call the patch cannot reach fails it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=/dev/null
source "$root/install/windows_deps.sh"
work=$(mktemp -d /tmp/tb-apt-sources-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# same NAME EXPECTED ACTUAL
same() {
  [[ $2 == "$3" ]] || fail "$1: expected"$'\n'"$2"$'\n'"--- got"$'\n'"$3"$'\n'"--- diff:"$'\n'"$(diff <(echo "$2") <(echo "$3") || true)"
  echo "ok    $1"
}

# Debian 12's debian.sources (with a snapshot comment) and a third party's.
debian_sources='Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg'
same "Debian deb822" "Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" "$(tb_apt_src_deb822 <<<"$debian_sources")"

# Ubuntu 24.04's ubuntu.sources: lower-case field names don't matter,
# a disabled stanza goes, "deb deb-src" is one deb-src, an embedded key's
# continuation lines are kept, the last stanza has no newline at its end.
ubuntu_sources='## Ubuntu sources have moved
Types: deb
URIs: http://archive.ubuntu.com/ubuntu/
Suites: noble noble-updates noble-backports
Components: main restricted universe multiverse
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg

types: deb deb-src
uris: http://ports.ubuntu.com/ubuntu-ports
suites: noble
components: main
signed-by:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 mQINBFufwdoBEADv
 -----END PGP PUBLIC KEY BLOCK-----

Types: deb
Enabled: no
URIs: http://security.ubuntu.com/ubuntu/
Suites: noble-security
Components: main'
same "Ubuntu deb822" "Types: deb-src
URIs: http://archive.ubuntu.com/ubuntu/
Suites: noble noble-updates noble-backports
Components: main restricted universe multiverse
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg

Types: deb-src
uris: http://ports.ubuntu.com/ubuntu-ports
suites: noble
components: main
signed-by:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 mQINBFufwdoBEADv
 -----END PGP PUBLIC KEY BLOCK-----" "$(printf '%s' "$ubuntu_sources" | tb_apt_src_deb822)"

nodesource='Types: deb
URIs: https://deb.nodesource.com/node_20.x
Suites: nodistro
Components: main'
same "a third party's deb822" "" "$(tb_apt_src_deb822 <<<"$nodesource")"
same "a deb-src-less type" "" "$(tb_apt_src_deb822 <<<$'Types: rpm\nURIs: http://deb.debian.org/debian\nSuites: x')"

# Debian 11's one-line sources.list: options kept, comments and a trailing
# comment go, an existing deb-src stays once, a local mirror's /debian counts.
debian_list='# deb cdrom:[Debian GNU/Linux 11.0.0]/ bullseye main
deb http://deb.debian.org/debian bullseye main contrib   # the main archive
deb-src http://deb.debian.org/debian bullseye main contrib

deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://security.debian.org/debian-security bullseye-security main
	deb   http://mirror.example.org/debian/ bullseye-updates main
deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main
deb [ arch=amd64 ] https://repo.example.com/apt stable main
deb [ arch=amd64 ] http://deb.debian.org/debian bullseye-backports main'
same "Debian one-line" "deb-src http://deb.debian.org/debian bullseye main contrib
deb-src http://deb.debian.org/debian bullseye main contrib
deb-src [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://security.debian.org/debian-security bullseye-security main
deb-src http://mirror.example.org/debian/ bullseye-updates main
deb-src [ arch=amd64 ] http://deb.debian.org/debian bullseye-backports main" "$(tb_apt_src_oneline <<<"$debian_list")"

ubuntu_list='deb http://archive.ubuntu.com/ubuntu/ jammy main restricted
deb http://security.ubuntu.com/ubuntu jammy-security main
deb http://ppa.launchpadcontent.net/deadsnakes/ppa/ubuntu jammy main
deb https://apt.releases.hashicorp.com jammy main'
# A PPA's path ends in /ubuntu too: taken (PPAs publish sources; a
# repository without them only earns a notice from apt update).
same "Ubuntu one-line" "deb-src http://archive.ubuntu.com/ubuntu/ jammy main restricted
deb-src http://security.ubuntu.com/ubuntu jammy-security main
deb-src http://ppa.launchpadcontent.net/deadsnakes/ppa/ubuntu jammy main" "$(tb_apt_src_oneline <<<"$ubuntu_list")"

# The whole configuration from an /etc/apt: both formats together, *.disabled ignored.
etc=$work/etc
mkdir -p "$etc/sources.list.d"
printf '%s\n' "$debian_list" >"$etc/sources.list"
printf '%s\n' "$debian_sources" >"$etc/sources.list.d/debian.sources"
printf '%s\n' "$nodesource" >"$etc/sources.list.d/nodesource.sources"
printf '%s\n' "$ubuntu_list" >"$etc/sources.list.d/ubuntu.list"
printf 'deb http://deb.debian.org/debian sid main\n' >"$etc/sources.list.d/sid.list.disabled"
tb_apt_src_config "$etc" "$work/out"
same "the .sources written" "$(tb_apt_src_deb822 <<<"$debian_sources")" "$(cat "$work/out/tabbridge-src.sources")"
list=$(cat "$work/out/tabbridge-src.list")
[[ $(grep -c . <<<"$list") == 7 ]] || fail "the .list should have 7 lines (one duplicate gone, the Ubuntu three): $list"
grep -q sid <<<"$list" && fail "a *.disabled file was read: $list"
echo "ok    the configuration from an /etc/apt with both formats"

# Only one-line files (no sources.list.d/*.sources): no .sources written.
rm "$etc/sources.list.d/"*.sources
tb_apt_src_config "$etc" "$work/out2"
[[ ! -e $work/out2/tabbridge-src.sources && -s $work/out2/tabbridge-src.list ]] || fail "one-line only: $(ls "$work/out2")"
echo "ok    only one-line files"

# Nothing of the distribution's: fails, saying so.
rm "$etc/sources.list" "$etc/sources.list.d/"*.list
printf '%s\n' "$nodesource" >"$etc/sources.list.d/nodesource.sources"
if message=$(tb_apt_src_config "$etc" "$work/out3" 2>&1); then fail "no archive should fail"; fi
grep -q 'no Debian or Ubuntu archive' <<<"$message" || fail "the failure does not say why: $message"
echo "ok    no archive of the distribution: $message"

# The libuv patch on a stand-in src/win: both calls patched, once (a second
# run changes nothing); a call with another pipe mode fails, naming it.
uv=$work/uv
mkdir -p "$uv/src/win"
cat >"$uv/src/win/pipe.c" <<'C'
    pipeHandle = CreateNamedPipeA(name,
      access | FILE_FLAG_FIRST_PIPE_INSTANCE,
      PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT, 1, 65536, 65536, 0,
      NULL);
  /* CreateNamedPipe() in a comment is no call */
      CreateNamedPipeW(handle->name,
                       PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | WRITE_DAC,
                       PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT,
                       PIPE_UNLIMITED_INSTANCES, 65536, 65536, 0, NULL);
C
printf 'int other(void) { return 0; }\n' >"$uv/src/win/core.c"
tb_patch_libuv "$uv"
[[ $(grep -c 'PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS' "$uv/src/win/pipe.c") == 2 ]] || fail "not patched: $(cat "$uv/src/win/pipe.c")"
tb_patch_libuv "$uv" >/dev/null
[[ $(grep -c 'PIPE_REJECT_REMOTE_CLIENTS' "$uv/src/win/pipe.c") == 2 ]] || fail "patched twice: $(cat "$uv/src/win/pipe.c")"
echo "ok    the libuv patch: both calls, once"
cat >"$uv/src/win/fs-fd-hash.c" <<'C'
  h = CreateNamedPipeW(name, PIPE_ACCESS_INBOUND, PIPE_TYPE_MESSAGE | PIPE_WAIT, 1, 0, 0, 0, NULL);
C
if message=$(tb_patch_libuv "$uv" 2>&1); then fail "a call with another mode should fail the patch: $message"; fi
grep -q '3 CreateNamedPipe calls .* but 2 with PIPE_REJECT_REMOTE_CLIENTS' <<<"$message" ||
  fail "the failure does not count: $message"
grep -q 'fs-fd-hash.c:1:.*PIPE_TYPE_MESSAGE' <<<"$message" || fail "the failure does not show the call: $message"
echo "ok    a call the patch cannot reach fails it, loudly"

# A failing step: its output is in its log, and the failure says what failed
# and shows the log's tail on stderr, with the command's status.
logs=$work/logs
mkdir -p "$logs"
status=0
message=$( (tb_step demo bash -c 'echo configuring; echo "no such thing" >&2; exit 3') 2>&1 >/dev/null) || status=$?
[[ $status == 3 ]] || fail "a failing step should end with its status 3, not $status"
grep -q "step 'demo' failed (exit 3): bash -c" <<<"$message" || fail "the failure does not say what failed: $message"
grep -q 'no such thing' <<<"$message" || fail "the failure does not show the log's tail: $message"
grep -q 'configuring' "$logs/demo.log" || fail "the step's output is not in its log"
tb_step quiet echo fine
grep -q fine "$logs/quiet.log" || fail "a passing step's output is not in its log"
echo "ok    a failing step says what failed, with its log's tail"

# What each mode installs, with stand-ins for dpkg-query (nothing installed),
# apt-get and sudo, and a cache that has its libraries already: --package asks
# for the compiler and the headers, not Wine or GoogleTest; the full mode for both.
stubs=$work/stubs
mkdir -p "$stubs"
printf '#!/bin/sh\nexit 1\n' >"$stubs/dpkg-query"
printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\n' "$work" >"$stubs/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$stubs/sudo"
chmod +x "$stubs"/*
cache=$work/cache
mkdir -p "$cache/lib/cmake/GTest"
# shellcheck disable=SC2154 # set by windows_deps.sh, sourced above
touch "$cache/lib/libuv.a" "$cache/lib/$tb_libuv_patch_stamp" "$cache/lib/cmake/GTest/GTestConfig.cmake"
for mode in --package full; do
  rm -f "$work/apt.log"
  args=()
  [[ $mode == --package ]] && args=(--package)
  out=$(PATH="$stubs:$PATH" TABBRIDGE_WINDOWS_DEPS=$cache bash "$root/install/windows_deps.sh" "${args[@]}" 2>&1) ||
    fail "windows_deps.sh $mode with stand-ins: $out"
  install=$(grep ' install ' "$work/apt.log") || fail "$mode: no apt-get install: $(cat "$work/apt.log")"
  grep -q 'g++-mingw-w64-x86-64-posix' <<<"$install" || fail "$mode: no compiler asked for: $install"
  grep -q 'libspdlog-dev' <<<"$install" || fail "$mode: no headers asked for: $install"
  if [[ $mode == --package ]]; then
    grep -qE 'wine64|googletest' <<<"$install" && fail "--package asks for Wine or GoogleTest: $install"
  else
    { grep -q wine64 <<<"$install" && grep -q googletest <<<"$install"; } || fail "the full mode lacks Wine or GoogleTest: $install"
  fi
  grep -q "Windows dependencies (${mode#--}) in $cache" <<<"$out" || fail "$mode: $out"
  echo "ok    windows_deps.sh $mode installs: ${install#*--no-install-recommends }"
done
