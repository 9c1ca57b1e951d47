#!/bin/sh
# Tensors over the symmetric heap that a Python program still holds at
# gshmem.finalize() stay usable after it and are unmapped when dropped
# (after_finalize.py says what is checked), on 2 PEs over load/store and,
# where this build has UCX, over it (GSHMEM_DISABLE_P2P=1).  Exit 77 with a
# SKIP line when python3 cannot import numpy and torch.
set -u
py_name=py-after-finalize-np2.sh
. "$(dirname "$0")/env.sh"
CUDA_VISIBLE_DEVICES= # the host heap: a GPU heap's CUDA path is compiled, not run
export CUDA_VISIBLE_DEVICES
fail=0
for p2p in 0 1; do
    if [ $p2p = 1 ] && ! "$build/tools/gshmem-info" | grep -q '^transports:.* ucx '; then
        echo "py-after-finalize-np2.sh: no UCX in this build: load/store only"
        break
    fi
    GSHMEM_DISABLE_P2P=$p2p timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" \
        "$build/tools/gshmemrun" -np 2 python3 "$top/tests/python/after_finalize.py"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "py-after-finalize-np2.sh: FAIL: GSHMEM_DISABLE_P2P=$p2p: the job exited $rc" >&2
        fail=1
    fi
done
exit $fail
