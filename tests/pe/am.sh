#!/bin/sh
# tests/pe/am.sh - the network transport's active-message path on a
# transport that also has RMA: tests/pe programs on 2 and 4 PEs with
# GSHMEM_DISABLE_P2P=1 and GSHMEM_UCX_AM=1, so small operations go as
# messages the target applies while blocks go by UCX's RMA over shared
# memory, which lands at once.  The orderings that fence and blocking gets
# promise between the two (tests/pe/order's words_and_blocks) fail here
# first.  Over TCP, the netns tests run the same path on its own.
# AM_PROGS and AM_NP override the programs and the PE counts.
set -u
. "$(dirname "$0")/../uid/common.sh"

progs=${AM_PROGS:-"order rma amo signal lock p2psync"}
nps=${AM_NP:-"2 4"}
work=$(mktemp -d "${TMPDIR:-/tmp}/am.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

if [ ! -r "$top_build/config.h" ] || ! grep -q '^#define GSHMEM_HAVE_UCX 1' "$top_build/config.h"; then
    skip "this build has no network transport (UCX)"
    finish am.sh
fi
GSHMEM_DISABLE_P2P=1 GSHMEM_UCX_AM=1
export GSHMEM_DISABLE_P2P GSHMEM_UCX_AM
for p in $progs; do
    for np in $nps; do
        "$top_build/tests/pe/run-pe" "$top_build/tests/pe/$p-np$np.pe" >"$work/out" 2>"$work/err"
        s=$?
        if [ $s -eq 77 ]; then
            skip "$p on $np PEs: $(tail -n 1 "$work/out")"
        elif [ $s -ne 0 ]; then
            fail "$p on $np PEs: status $s"
            show "$work/out" "$work/err"
        else
            pass "$p on $np PEs: $(tail -n 1 "$work/out")"
        fi
    done
done
finish am.sh
