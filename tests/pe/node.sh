#!/bin/sh
# tests/pe/node.sh - the node transport (GSHMEM_TRANSPORT=node,
# src/net/node/): with GSHMEM_DISABLE_P2P=1 every other PE is reached
# through it, so the device programs run the proxy ring (host lanes
# pushing, quieting and fetching while the proxy thread drains) over copies
# and CPU atomics on mapped memory, in every build (no UCX or RDMA device
# needed), and the host programs run the core's network path.  Last, the
# proxy's debug line says it ran over this transport.  Its refusals are
# tests/unit/node and tests/netns/run.sh.  NODE_PROGS and NODE_NP override
# the programs and the PE counts (when this was written, device/
# proxy_strided, wait, order, mem, teams_live, stream, buffer and pe/lock,
# p2psync, coll_bcast, reduce, static, threads, amo_contend, ctx passed
# too, at 2 and 4 PEs).
set -u
. "$(dirname "$0")/../uid/common.sh"

progs=${NODE_PROGS:-"device/rma device/signal device/amo device/coll device/ring device/symreg \
device/hostrma pe/rma pe/amo pe/signal pe/order"}
nps=${NODE_NP:-"2"}
work=$(mktemp -d "${TMPDIR:-/tmp}/node.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

GSHMEM_DISABLE_P2P=1 GSHMEM_TRANSPORT=node
export GSHMEM_DISABLE_P2P GSHMEM_TRANSPORT
for p in $progs; do
    for np in $nps; do
        "$top_build/tests/pe/run-pe" "$top_build/tests/$p-np$np.pe" >"$work/out" 2>"$work/err"
        s=$?
        if [ $s -eq 77 ]; then
            skip "$p on $np PEs: $(tail -n 1 "$work/out")"
        elif [ $s -ne 0 ]; then
            fail "$p on $np PEs: status $s"
            show "$work/out" "$work/err"
        elif grep -q "transport node" "$work/err"; then
            fail "$p on $np PEs: the node transport warned"
            show "$work/out" "$work/err"
        else
            pass "$p on $np PEs: $(tail -n 1 "$work/out")"
        fi
    done
done
# The proxy drained through this transport, not another.
SHMEM_DEBUG=1 "$top_build/tests/pe/run-pe" "$top_build/tests/device/rma-np2.pe" >"$work/out" \
    2>"$work/err"
if grep -q "proxy: .* over node$" "$work/err"; then
    pass "device/rma on 2 PEs: the proxy runs over the node transport"
else
    fail "device/rma on 2 PEs: no proxy over the node transport"
    grep "proxy" "$work/err" | sed 's/^/    /'
fi
finish node.sh
