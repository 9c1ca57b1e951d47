#!/bin/sh
# tests/pe/net.mk lists the network twin of every multi-PE test.
top=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if sh "$top/tests/pe/gen-net-mk.sh" "$top" | cmp -s - "$top/tests/pe/net.mk"; then
    echo "tests/pe/net.mk is current"
    exit 0
fi
echo "tests/pe/net.mk is stale: run sh tests/pe/gen-net-mk.sh > tests/pe/net.mk"
exit 1
