#!/bin/sh
# KV transfer between two jobs on two "hosts": network namespaces joined by
# veth pairs to a bridge (as tests/netns/run.sh makes them), one job of
# one PE in each, started without a launcher.  The server listens on its
# namespace's address; the puller connects with the secret and reads and
# writes every block (kv_peers.c serve-listen / pull-connect say what is
# checked), once with the blob over listen/connect and once with the
# blob through a file (serve / pull).  The same kernel would let the
# library copy directly (process_vm_readv), and UCX join the two through
# shared memory: GSHMEM_KV_DIRECT=0 and UCX_TLS=tcp make the data cross
# the veth interfaces.  Needs root and iproute2; SKIP (77) otherwise.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
prog=$build/tests/kv/kv_peers
limit=${GSHMEM_TEST_TIMEOUT:-60}
[ "$(id -u)" = 0 ] || { echo "kv-netns.sh: SKIP: network namespaces need root"; exit 77; }
command -v ip >/dev/null 2>&1 || { echo "kv-netns.sh: SKIP: no ip command"; exit 77; }
id=gkv$$
hub=$id-hub
made=
work=$(mktemp -d "${TMPDIR:-/tmp}/kvnetns.XXXXXX") || exit 99
cleanup() {
    for ns in $made; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
if ! ip netns add "$hub" 2>"$work/err"; then
    echo "kv-netns.sh: SKIP: cannot make a network namespace ($(cat "$work/err"))"
    exit 77
fi
made=$hub
ip -n "$hub" link add br0 type bridge && ip -n "$hub" link set br0 up || exit 99
for i in 0 1; do
    ns=$id-$i
    ip netns add "$ns" || exit 99
    made="$made $ns"
    ip link add "v$id$i" type veth peer name eth0 netns "$ns" || exit 99
    ip link set "v$id$i" netns "$hub" || exit 99
    ip -n "$hub" link set "v$id$i" master br0 up || exit 99
    ip -n "$ns" addr add "10.79.0.$((i + 1))/24" dev eth0 || exit 99
    ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up || exit 99
done
KV_PEERS_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
KV_PEERS_LISTEN=10.79.0.1:0
GSHMEM_KV_DIRECT=0
UCX_TLS=tcp,self
export KV_PEERS_SECRET KV_PEERS_LISTEN GSHMEM_KV_DIRECT UCX_TLS
# Bytes through the server's eth0, both ways: what the puller reads and
# writes of the 32 KiB pool crosses it (25-28 KiB seen; with the direct
# copy, 0.2-3 KiB: the listener's messages and UCX's wire-up).
tx() {
    ip netns exec "$id-0" sh -c 'echo $(($(cat /sys/class/net/eth0/statistics/tx_bytes) +
        $(cat /sys/class/net/eth0/statistics/rx_bytes)))'
}
fail=0
for pair in "serve-listen pull-connect" "serve pull"; do
    before=$(tx)
    set -- $pair
    dir=$(mktemp -d "$work/pair.XXXXXX") || exit 99
    timeout -k 5 "$limit" ip netns exec "$id-0" "$prog" "$1" "$dir" &
    server=$!
    timeout -k 5 "$limit" ip netns exec "$id-1" "$prog" "$2" "$dir"
    prc=$?
    wait $server
    src=$?
    sent=$(($(tx) - before))
    echo "kv-netns.sh: $1 in 10.79.0.1, $2 in 10.79.0.2: exited $src and $prc, $sent bytes through 10.79.0.1's eth0"
    [ $src -eq 0 ] && [ $prc -eq 0 ] || fail=1
    if [ "$sent" -lt 16384 ]; then
        echo "kv-netns.sh: FAIL: under 16 KiB crossed the veth: the data went another way" >&2
        fail=1
    fi
done
exit $fail
