#!/bin/sh
# A Python PE that fails while its peer waits ends the job with one line
# within 10 s, over load/store and through UCX: an uncaught exception (bad_raise.py, the package's
# sys.excepthook; bad_raise_moe.py, while the peer dispatches through a
# gshmem.moe.Buffer) and sys.exit(1) (bad_exit.py: atexit's finalize, seen by
# the waiting PE's failure propagation).  Each job sets GSHMEM_WAIT_TIMEOUT
# to 60 s, so ending in time proves neither hung until it.  The GPU stays
# out of it (CUDA_VISIBLE_DEVICES=): a GPU's unseen kernels turn failure
# propagation off.  Exit 77 with a SKIP line when python3 cannot import
# numpy and torch.
set -u
py_name=py-bad-exit-np2.sh
. "$(dirname "$0")/env.sh"
CUDA_VISIBLE_DEVICES=
GSHMEM_WAIT_TIMEOUT=60
export CUDA_VISIBLE_DEVICES GSHMEM_WAIT_TIMEOUT
fail=0
# one SCRIPT REGEX: run it on 2 PEs; it must fail with a line matching REGEX
# within 10 s of its "failing at <time>" line (after the imports, which
# take seconds of their own on a busy machine).
one() {
    out=$(timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" "$build/tools/gshmemrun" -np 2 \
        python3 "$top/tests/python/$1" 2>&1)
    rc=$?
    start=$(printf '%s\n' "$out" | sed -n 's/^.*: failing at \([0-9]*\)$/\1/p' | head -n 1)
    took=$(($(date +%s) - ${start:-0}))
    printf '%s\n' "$out"
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        echo "py-bad-exit-np2.sh: FAIL: GSHMEM_DISABLE_P2P=$p2p: $1: the job exited $rc; it must fail with the line" >&2
        fail=1
    elif ! printf '%s\n' "$out" | grep -Eq "$2"; then
        echo "py-bad-exit-np2.sh: FAIL: GSHMEM_DISABLE_P2P=$p2p: $1: no line matching: $2" >&2
        fail=1
    elif [ "$took" -gt 10 ]; then
        echo "py-bad-exit-np2.sh: FAIL: GSHMEM_DISABLE_P2P=$p2p: $1: took $took s, more than 10" >&2
        fail=1
    else
        echo "py-bad-exit-np2.sh: PASS: GSHMEM_DISABLE_P2P=$p2p: $1: exit $rc in $took s with the line"
    fi
}
# Over load/store and, where this build has UCX, with every other PE
# through it (GSHMEM_DISABLE_P2P=1).
for p2p in 0 1; do
    if [ $p2p = 1 ] && ! "$build/tools/gshmem-info" | grep -q '^transports:.* ucx '; then
        echo "py-bad-exit-np2.sh: no UCX in this build: load/store only"
        break
    fi
    GSHMEM_DISABLE_P2P=$p2p
    export GSHMEM_DISABLE_P2P
    one bad_raise.py 'gshmem: PE 1: uncaught ValueError: bad_raise: PE 1 gives up'
    one bad_raise_moe.py 'gshmem: PE 1: uncaught ValueError: bad_raise_moe: PE 1 gives up mid-dispatch'
    one bad_exit.py 'gshmem: PE 0: shmem_signal_wait_until: PE 1 called shmem_finalize while this PE waits in shmem_signal_wait_until'
done
exit $fail
