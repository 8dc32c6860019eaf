#!/usr/bin/env bash
# The libuv the Windows programs link is the patched one (ctest:
# windows_libuv_patched): install/windows_deps.sh adds
# PIPE_REJECT_REMOTE_CLIENTS to every CreateNamedPipe call of libuv's
# src/win, so no named pipe of ours accepts a client from another machine
# (SMB). In the deps cache: the stamp of the current patch exists; the
# extracted source it was built from has as many PIPE_REJECT_REMOTE_CLIENTS
# as CreateNamedPipeA/W calls (at least one); and libuv.a was built after
# that source was patched and before the stamp was written.
#   libuv_patch_test.sh DEPS_PREFIX
set -euo pipefail
prefix=$1
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
stamp=$(sed -n 's/^tb_libuv_patch_stamp=//p' "$(dirname "$0")/../../install/windows_deps.sh")
[[ -n $stamp ]] || fail "install/windows_deps.sh sets no tb_libuv_patch_stamp"
[[ -f $prefix/lib/$stamp ]] || fail "no $prefix/lib/$stamp: libuv.a was built without the current patch (run install/deps.sh --windows)"
cat "$prefix/lib/$stamp"
win=$prefix/src/libuv/source/src/win
[[ -f $win/pipe.c ]] || fail "no patched source in $win"
calls=$(cat "$win"/*.c | grep -c 'CreateNamedPipe[AW][[:space:]]*(' || true)
flags=$(cat "$win"/*.c | grep -c 'PIPE_REJECT_REMOTE_CLIENTS' || true)
grep -n -A3 'CreateNamedPipe[AW][[:space:]]*(' "$win"/*.c
((calls > 0)) || fail "no CreateNamedPipe call found in $win"
[[ $calls == "$flags" ]] || fail "$calls CreateNamedPipe calls in $win, $flags PIPE_REJECT_REMOTE_CLIENTS"
# Each call's pipe-mode argument itself (the line with PIPE_TYPE_) carries the flag.
modes=$(grep -h 'PIPE_TYPE_BYTE' "$win"/*.c)
if grep -v PIPE_REJECT_REMOTE_CLIENTS <<<"$modes"; then fail "a pipe mode without the flag (above)"; fi
[[ ! $win/pipe.c -nt $prefix/lib/libuv.a ]] || fail "pipe.c is newer than libuv.a: libuv.a is not built from it"
[[ ! $prefix/lib/libuv.a -nt $prefix/lib/$stamp ]] || fail "libuv.a is newer than its stamp $stamp"
echo "== libuv: all $calls CreateNamedPipe calls reject remote clients; libuv.a built from that source"
