#!/bin/sh
# Python arguments that differ between 2 PEs end the job with the line of
# the check that compares them, over load/store and through UCX: allocations of different sizes
# (bad_alloc.py: host/alloc_call.c) and a gshmem.moe.Buffer made with
# different hidden sizes (bad_moe_config.py: libs/moe's config exchange), and
# gshmem.fcollect of different sizes (bad_coll_size.py: the digest that the
# collective's closing barrier compares, issue 29).
# Exit 77 with a SKIP line when python3 cannot import numpy and torch.
set -u
py_name=py-bad-args-np2.sh
. "$(dirname "$0")/env.sh"
fail=0
# one SCRIPT REGEX: run it on 2 PEs; it must fail with a line matching REGEX.
one() {
    out=$(timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" "$build/tools/gshmemrun" -np 2 \
        python3 "$top/tests/python/$1" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        echo "py-bad-args-np2.sh: FAIL: GSHMEM_DISABLE_P2P=$p2p: $1: the job exited $rc; it must fail with the line" >&2
        fail=1
    elif ! printf '%s\n' "$out" | grep -Eq "$2"; then
        echo "py-bad-args-np2.sh: FAIL: GSHMEM_DISABLE_P2P=$p2p: $1: no line matching: $2" >&2
        fail=1
    else
        echo "py-bad-args-np2.sh: PASS: GSHMEM_DISABLE_P2P=$p2p: $1: exit $rc with the line"
    fi
}
# Over load/store and, where this build has UCX, with every other PE
# through it (GSHMEM_DISABLE_P2P=1).
for p2p in 0 1; do
    if [ $p2p = 1 ] && ! "$build/tools/gshmem-info" | grep -q '^transports:.* ucx '; then
        echo "py-bad-args-np2.sh: no UCX in this build: load/store only"
        break
    fi
    GSHMEM_DISABLE_P2P=$p2p
    export GSHMEM_DISABLE_P2P
    one bad_alloc.py 'gshmem: PE [0-9]+: gshmem_malloc: PE [0-9]+ asked for [0-9]+ bytes, this PE for [0-9]+'
    one bad_moe_config.py 'gshmem: PE [0-9]+: gshmem_moe_create: PE 1 has hidden 256, PE 0 128: every PE must pass the same config'
    one bad_coll_size.py 'gshmem: PE ([0-9]+: shmem_fcollectmem: PEs disagree: PE 1 collects 128 bytes from each PE, this PE 256|1: shmem_fcollectmem: PEs disagree: PE 0 collects 256 bytes from each PE, this PE 128) bytes'
done
exit $fail
