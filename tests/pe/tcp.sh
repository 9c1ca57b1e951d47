#!/bin/sh
# tests/pe/tcp.sh - the network transport over UCX's TCP transport alone
# (UCX_TLS=tcp,self, GSHMEM_DISABLE_P2P=1): TCP has no RMA lanes, so every
# put, get and atomic goes as an active message that the target's handlers
# (src/net/ucx/ucx_am.c) apply.  Their headers arrive at whatever alignment
# TCP leaves them, which is what the UBSan build of scripts/sanitize.sh
# runs this for.  TCP_PROGS and TCP_NP override the programs and the PE
# counts.
set -u
. "$(dirname "$0")/../uid/common.sh"

progs=${TCP_PROGS:-"rma amo signal"}
nps=${TCP_NP:-"2"}
work=$(mktemp -d "${TMPDIR:-/tmp}/tcp.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

if [ ! -r "$top_build/config.h" ] || ! grep -q '^#define GSHMEM_HAVE_UCX 1' "$top_build/config.h"; then
    skip "this build has no network transport (UCX)"
    finish tcp.sh
fi
GSHMEM_DISABLE_P2P=1 UCX_TLS=tcp,self
export GSHMEM_DISABLE_P2P UCX_TLS
for p in $progs; do
    for np in $nps; do
        "$top_build/tests/pe/run-pe" "$top_build/tests/pe/$p-np$np.pe" >"$work/out" 2>"$work/err"
        s=$?
        if [ $s -eq 77 ]; then
            skip "$p on $np PEs: $(tail -n 1 "$work/out")"
        elif [ $s -ne 0 ]; then
            fail "$p on $np PEs over TCP: status $s"
            show "$work/out" "$work/err"
        else
            pass "$p on $np PEs over TCP: $(tail -n 1 "$work/out")"
        fi
    done
done
finish tcp.sh
