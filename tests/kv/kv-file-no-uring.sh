#!/bin/sh
# The storage tier where the kernel refuses io_uring (a seccomp filter
# that fails io_uring_setup with EPERM, as containers do: no_uring.c):
# kv_file must pass with every byte checked, each file having fallen back
# to pread/pwrite, and SHMEM_INFO=1 must say so once per file ("io_uring
# refused (Operation not permitted): pread/pwrite for ...").  Exit 77 in a
# build without liburing (nothing to fall back from) or without seccomp.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! grep -q '^#define GSHMEM_HAVE_URING 1' "$build/config.h" 2>/dev/null; then
    echo "kv-file-no-uring.sh: SKIP: built without liburing"
    exit 77
fi
out=$(SHMEM_INFO=1 timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" "$build/tests/kv/no_uring" \
    "$build/tools/gshmemrun" -np 1 "$build/tests/kv/kv_file" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^gshmem: PE 0: \(SHMEM_INFO\|  \)' | tail -n 30
[ $rc -eq 77 ] && exit 77
fail=0
if [ $rc -ne 0 ]; then
    echo "kv-file-no-uring.sh: FAIL: kv_file exited $rc under the filter" >&2
    fail=1
fi
if ! printf '%s\n' "$out" | grep -q 'io_uring refused (Operation not permitted): pread/pwrite for'; then
    echo "kv-file-no-uring.sh: FAIL: no 'io_uring refused' line under SHMEM_INFO=1" >&2
    fail=1
fi
if printf '%s\n' "$out" | grep -q 'engine io_uring'; then
    echo "kv-file-no-uring.sh: FAIL: a file still got io_uring under the filter" >&2
    fail=1
fi
exit $fail
