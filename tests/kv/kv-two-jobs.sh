#!/bin/sh
# KV transfer between jobs started by separate launcher commands
# (kv_peers.c says what each role checks), once by the same-host direct
# copy (process_vm_readv/writev, the default) and once through UCX over
# tcp alone (GSHMEM_KV_DIRECT=0 UCX_TLS=tcp: the server's progress thread
# answers every get and put):
#   - a server job and a puller job of 2 PEs each (serve, pull), the blob
#     through a file; the same with the blob from gshmem_kv_listen /
#     gshmem_kv_connect and a random secret (serve-listen, pull-connect);
#   - kill and restart: a server of 1 PE that dies once the puller has
#     read from it (serve-die; the puller must see GSHMEM_KV_ERR_PEER
#     within 10 s), then a replacement server started after it, which
#     the same puller adds and uses (pull-restart, serve ROUND 2).
# Each job must end within GSHMEM_TEST_TIMEOUT; every job but the dying
# server must exit 0.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
limit=${GSHMEM_TEST_TIMEOUT:-60}
prog=$build/tests/kv/kv_peers
KV_PEERS_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export KV_PEERS_SECRET
fail=0
job() { # NP ARGS...: one job, bounded
    np=$1
    shift
    timeout -k 10 "$limit" "$build/tools/gshmemrun" -np "$np" "$prog" "$@"
}
pair() { # WHAT SERVE-ROLE PULL-ROLE: a server job and a puller job of 2 PEs
    dir=$(mktemp -d) || exit 99
    job 2 "$2" "$dir" &
    serve=$!
    job 2 "$3" "$dir"
    prc=$?
    wait $serve
    src=$?
    echo "kv-two-jobs.sh: UCX_TLS=$name: $1: serve exited $src, pull $prc"
    [ $src -eq 0 ] && [ $prc -eq 0 ] || fail=1
    rm -rf "$dir"
}
for tls in "" tcp; do
    if [ -n "$tls" ]; then
        UCX_TLS=$tls,self GSHMEM_KV_DIRECT=0
        export UCX_TLS GSHMEM_KV_DIRECT
        name="$tls, GSHMEM_KV_DIRECT=0"
    else
        name="default: direct"
    fi
    pair "blob by file" serve pull
    pair "listen and connect" serve-listen pull-connect

    dir=$(mktemp -d) || exit 99
    job 1 serve-die "$dir" 1 &
    first=$!
    job 1 pull-restart "$dir" &
    puller=$!
    wait $first
    drc=$?
    job 1 serve "$dir" 2 &
    second=$!
    wait $puller
    prc=$?
    wait $second
    src=$?
    echo "kv-two-jobs.sh: UCX_TLS=$name: kill and restart: the dying server exited $drc," \
        "the puller $prc, the replacement $src"
    [ $drc -ne 0 ] && [ $drc -ne 124 ] && [ $drc -ne 137 ] && [ $prc -eq 0 ] && [ $src -eq 0 ] ||
        fail=1
    rm -rf "$dir"
    unset UCX_TLS GSHMEM_KV_DIRECT
done
exit $fail
