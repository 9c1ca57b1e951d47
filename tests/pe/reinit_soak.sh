#!/bin/sh
# tests/pe/reinit_soak.sh - init after finalize, at length (issue 32, point 3):
#   - 200 cycles on 2 PEs by load/store, and 100 over UCX
#     (GSHMEM_DISABLE_P2P=1, 0.3 s a cycle there): a flat resident set and
#     mapping count (tests/pe/reinit.c checks them from 40 cycles on; over
#     UCX the set still grows about 14 kB a cycle, inside UCX, within the
#     check's 4 MiB);
#   - 6 runs of 20 cycles over UCX under mpirun's PMIx, where a later init
#     used to fail in 2 runs of 6 (PMIx_Fence: PARTIAL SUCCESS, PMIx_Get:
#     TIMEOUT) or hang.
# REINIT_RUNS and REINIT_LONG override the 6 and the 200 (half of it over UCX).
set -u
. "$(dirname "$0")/../uid/common.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/reinit.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
pe=$top_build/tests/pe/reinit-np2.pe

# one LABEL CYCLES P2P-OFF: a run of tests/pe/reinit on 2 PEs.
one() {
    GSHMEM_TEST_TIMEOUT=150 GSHMEM_REINIT_CYCLES=$2 GSHMEM_DISABLE_P2P=$3 \
        "$top_build/tests/pe/run-pe" "$pe" \
        >"$work/out" 2>"$work/err"
    s=$?
    if [ $s -ne 0 ]; then
        fail "$1: status $s"
        show "$work/out" "$work/err"
    else
        pass "$1: $(grep -m 1 'after cycle 10' "$work/out" || tail -n 1 "$work/out")"
    fi
}

long=${REINIT_LONG:-200}
one "$long cycles by load/store" "$long" 0
one "$((long / 2)) cycles over UCX" "$((long / 2))" 1
r=1
while [ $r -le "${REINIT_RUNS:-6}" ]; do
    one "run $r of 20 cycles over UCX" 20 1
    r=$((r + 1))
done
finish reinit_soak.sh
