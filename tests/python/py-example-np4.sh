#!/bin/sh
# examples/python/moe_layer.py on 4 PEs (a few rounds): it exits 1 when the
# layer's output differs from the one-process reference.
set -u
top=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$top}
if ! why=$(cd "$top/python/gshmem" && python3 -c \
    'import _deps; _deps.ensure(); import numpy, torch' 2>&1 | tail -n 1); then
    echo "py-example-np4.sh: SKIP: python3 cannot import numpy and torch ($why)"
    exit 77
fi
PYTHONPATH=$top/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
limit=$((${GSHMEM_TEST_TIMEOUT:-60} * 5))
for args in "" "--fp8 --normal"; do
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" "$build/tools/gshmemrun" -np 4 python3 \
        "$top/examples/python/moe_layer.py" --iters 2 $args || exit 1
done
