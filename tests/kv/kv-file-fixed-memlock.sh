#!/bin/sh
# io_uring's registered buffers for a user who cannot pin a layout: kv_file_fixed
# with CAP_IPC_LOCK out of the bounding set (setpriv) and RLIMIT_MEMLOCK at
# 64 KiB (prlimit), so the kernel refuses every layout's registration
# (ENOMEM).  Every layout must go plain from the first (kv_file_fixed says
# "all plain"), every byte right, and the test pass.  Exit 77 in a build
# without liburing, without setpriv or prlimit, or where the capability
# cannot be dropped (not root).
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! grep -q '^#define GSHMEM_HAVE_URING 1' "$build/config.h" 2>/dev/null; then
    echo "kv-file-fixed-memlock.sh: SKIP: built without liburing"
    exit 77
fi
if ! command -v setpriv >/dev/null 2>&1 || ! command -v prlimit >/dev/null 2>&1 ||
    ! setpriv --bounding-set=-ipc_lock true 2>/dev/null; then
    echo "kv-file-fixed-memlock.sh: SKIP: cannot drop CAP_IPC_LOCK here (setpriv, prlimit, root)"
    exit 77
fi
out=$(timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-120}" "$build/tools/gshmemrun" -np 1 \
    prlimit --memlock=65536:65536 setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock \
    "$build/tests/kv/kv_file_fixed" 2>&1)
rc=$?
printf '%s\n' "$out" | tail -n 30
[ $rc -eq 77 ] && exit 77
fail=0
if [ $rc -ne 0 ]; then
    echo "kv-file-fixed-memlock.sh: FAIL: kv_file_fixed exited $rc" >&2
    fail=1
fi
if ! printf '%s\n' "$out" | grep -q 'cannot pin a layout (RLIMIT_MEMLOCK): all plain'; then
    echo "kv-file-fixed-memlock.sh: FAIL: the layouts were not refused under a 64 KiB RLIMIT_MEMLOCK" >&2
    fail=1
fi
exit $fail
