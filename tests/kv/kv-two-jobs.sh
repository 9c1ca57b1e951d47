#!/bin/sh
# Two jobs started by separate launcher commands, 2 PEs each: the first
# serves its KV pools to peers outside it (kv_peers serve), the second adds
# them and reads and writes their blocks (kv_peers pull; kv_peers.c says
# what is checked).  Once with UCX's choice of transports, once over tcp
# alone (UCX_TLS=tcp: the server's progress thread answers every get and
# put).  Each job must exit 0 within GSHMEM_TEST_TIMEOUT.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
limit=${GSHMEM_TEST_TIMEOUT:-60}
fail=0
for tls in "" tcp; do
    dir=$(mktemp -d) || exit 99
    if [ -n "$tls" ]; then UCX_TLS=$tls,self; export UCX_TLS; fi
    timeout -k 10 "$limit" "$build/tools/gshmemrun" -np 2 "$build/tests/kv/kv_peers" serve "$dir" &
    serve=$!
    timeout -k 10 "$limit" "$build/tools/gshmemrun" -np 2 "$build/tests/kv/kv_peers" pull "$dir"
    prc=$?
    wait $serve
    src=$?
    unset UCX_TLS
    rm -rf "$dir"
    echo "kv-two-jobs.sh: UCX_TLS=${tls:-default}: serve exited $src, pull $prc"
    [ $src -eq 0 ] && [ $prc -eq 0 ] || fail=1
done
exit $fail
