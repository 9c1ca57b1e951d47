#!/bin/sh
# tests/moe/bad_moe_config_refused.sh - bad_moe_config with the last PE
# refusing its own config (topk 0): its line says why, the others' name it,
# and every PE's create fails (none is left waiting).  2 and 4 PEs.
build=${GSHMEM_TOP_BUILDDIR:-.}
GSHMEM_TEST_MOE_REFUSE=1
export GSHMEM_TEST_MOE_REFUSE
for n in 2 4; do
    out=$("$build/tests/pe/run-pe" "$build/tests/moe/bad_moe_config-np$n.pe" 2>&1)
    status=$?
    echo "$out"
    [ $status -eq 0 ] || exit 1
    echo "$out" | grep -q "gshmem_moe_create: topk 0 is not" || {
        echo "bad_moe_config_refused: on $n PEs the refusing PE gave no reason"
        exit 1
    }
done
echo "bad_moe_config_refused: PASS"
