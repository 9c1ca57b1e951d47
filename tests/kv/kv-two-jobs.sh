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
#
# KV_TWO_JOBS_PATHS picks the paths (default "direct tcp"); "verbs" is
# libgshmem_kv's own RDMA path, with GSHMEM_KV_VERBS set by the caller (the
# soft-RoCE rig: tests/rdma/tests.list) and the direct copy off: there each
# job's SHMEM_INFO lines must show every peer added over verbs.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
limit=${GSHMEM_TEST_TIMEOUT:-60}
prog=$build/tests/kv/kv_peers
KV_PEERS_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export KV_PEERS_SECRET
fail=0
log=$(mktemp) || exit 99
trap 'rm -f "$log" "$log".*' EXIT
job() { # NP ARGS...: one job, bounded; its output also into $log
    np=$1
    shift
    out=$(mktemp "$log.XXXXXX") || exit 99
    timeout -k 10 "$limit" "$build/tools/gshmemrun" -np "$np" "$prog" "$@" >"$out" 2>&1
    jrc=$?
    cat "$out"
    cat "$out" >>"$log"
    rm -f "$out"
    return $jrc
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
for path in ${KV_TWO_JOBS_PATHS:-direct tcp}; do
    case $path in
    direct) name="default: direct" ;;
    tcp)
        UCX_TLS=tcp,self GSHMEM_KV_DIRECT=0
        export UCX_TLS GSHMEM_KV_DIRECT
        name="tcp, GSHMEM_KV_DIRECT=0"
        ;;
    verbs)
        [ -n "${GSHMEM_KV_VERBS:-}" ] || { echo "kv-two-jobs.sh: verbs needs GSHMEM_KV_VERBS"; exit 99; }
        GSHMEM_KV_DIRECT=0 SHMEM_INFO=1
        export GSHMEM_KV_DIRECT SHMEM_INFO
        name="${UCX_TLS:-default}, GSHMEM_KV_VERBS=$GSHMEM_KV_VERBS"
        ;;
    *) echo "kv-two-jobs.sh: no path '$path'"; exit 99 ;;
    esac
    : >"$log"
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
    if [ "$path" = verbs ]; then
        # Every peer_add of the pullers that succeeds: 6 (two pairs of 2
        # PEs, the restart's two).
        nv=$(grep -c "over verbs" "$log")
        echo "kv-two-jobs.sh: verbs: $nv peers added over verbs"
        [ "$nv" -ge 6 ] || fail=1
    fi
    unset UCX_TLS GSHMEM_KV_DIRECT SHMEM_INFO
done
exit $fail
