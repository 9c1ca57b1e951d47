#!/bin/sh
# Python allocations of different sizes on 2 PEs (bad_alloc.py) end the job
# with the line of the allocation-call comparison (host/alloc_call.c).
# Exit 77 with a SKIP line when python3 cannot import numpy and torch.
set -u
top=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$top}
if ! why=$(cd "$top/python/gshmem" && python3 -c 'import _deps; _deps.ensure(); import numpy, torch' \
    2>&1 | tail -n 1); then
    echo "py-bad-alloc-np2.sh: SKIP: python3 cannot import numpy and torch ($why)"
    exit 77
fi
PYTHONPATH=$top/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
out=$(timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" "$build/tools/gshmemrun" -np 2 \
    python3 "$top/tests/python/bad_alloc.py" 2>&1)
rc=$?
printf '%s\n' "$out"
want='gshmem: PE [0-9]+: gshmem_malloc: PE [0-9]+ asked for [0-9]+ bytes, this PE for [0-9]+'
if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    echo "py-bad-alloc-np2.sh: FAIL: the job exited $rc; it must fail with the line" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq "$want"; then
    echo "py-bad-alloc-np2.sh: FAIL: no line matching: $want" >&2
    exit 1
fi
echo "py-bad-alloc-np2.sh: PASS: exit $rc with the line"
