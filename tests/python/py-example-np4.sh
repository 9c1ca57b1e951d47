#!/bin/sh
# examples/python/moe_layer.py on 4 PEs (a few rounds): it exits 1 when the
# layer's output differs from the one-process reference.
set -u
py_name=py-example-np4.sh
. "$(dirname "$0")/env.sh"
limit=$((${GSHMEM_TEST_TIMEOUT:-60} * 5))
for args in "" "--fp8 --normal"; do
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" "$build/tools/gshmemrun" -np 4 python3 \
        "$top/examples/python/moe_layer.py" --iters 2 $args || exit 1
done
