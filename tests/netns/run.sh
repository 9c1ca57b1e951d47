#!/bin/sh
# tests/netns/run.sh - multi-PE tests across hosts, on one machine: network
# namespaces joined by veth pairs to a bridge, one or more PEs in each,
# started with the unique-id bootstrap's environment mode.
#
#   run.sh [-k NAMESPACES] [-p PES_PER_NAMESPACE] [PROGRAM...]
#
# NAMESPACES 1 to 4 (default 2), PES_PER_NAMESPACE 1 or 2 (default 2); rank
# r runs in namespace r mod NAMESPACES, so neighbours are on different
# "hosts" (gshmem tells hosts apart by network namespace) and their traffic
# crosses a real interface.  A PROGRAM is a name under tests/pe (default:
# every multi-PE test program but the bad_* ones) or a path.  First, tests/uid/boot checks the
# bootstrap alone (allgathers and barriers) across every namespace; last,
# tests/uid/dead_pe.sh kills a PE and checks that the others end.
#
# UCX_TLS is tcp,self unless set: UCX would otherwise join the namespaces
# through shared memory, as they share one kernel.
#
# Everything lives in namespaces this script makes and always removes: a hub
# namespace holding the bridge, and namespaces <id>-0.. with eth0 at
# 10.77.0.<i+1>/24; nothing is added to the namespace the script runs in.
# Rank 0 listens at 10.77.0.1:5000, with a new secret per program.  Needs
# root and iproute2's `ip`; where namespaces cannot be made, prints a SKIP
# line and exits 77.  A build
# without a network transport cannot join PEs on different hosts: then every
# PE runs in one namespace (said in a NOTE line).
# Exit status: 0 all passed, 1 a failure, 77 all skipped.
set -u
. "$(dirname "$0")/../uid/common.sh"

k=${GSHMEM_NETNS_COUNT:-2}
per=${GSHMEM_NETNS_PES:-2}
while getopts k:p: opt; do
    case $opt in
    k) k=$OPTARG ;;
    p) per=$OPTARG ;;
    *) echo "usage: run.sh [-k NAMESPACES] [-p PES_PER_NAMESPACE] [PROGRAM...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $k in 1 | 2 | 3 | 4) ;; *) echo "run.sh: -k takes 1 to 4, got '$k'" >&2; exit 2 ;; esac
case $per in 1 | 2) ;; *) echo "run.sh: -p takes 1 or 2, got '$per'" >&2; exit 2 ;; esac
[ $# -gt 0 ] || set -- setup mem static rma amo signal p2psync order lock ctx threads barrier \
    generic profiling progress reduce reduce_scan reduce_toall coll_bcast coll_collect \
    coll_alltoall coll_sync
# Seconds per program.  Over TCP the reductions' gets take 20-30 s alone
# and twice that beside another test of `make -j2 check`.
limit=${GSHMEM_TEST_TIMEOUT:-180}
# Namespaces share one kernel, so UCX would join their PEs through shared
# memory (posix, sysv); TCP makes the traffic cross the veth interfaces.
ucx_tls=${UCX_TLS:-tcp,self}

# skip_all REASON: one SKIP line with the reason (scripts/test.sh shows it).
skip_all() {
    echo "SKIP: $*"
    echo "run.sh: 0 passed, 0 failed, 1 skipped"
    exit 77
}

[ "$(id -u)" = 0 ] || skip_all "network namespaces need root"
command -v ip >/dev/null 2>&1 || skip_all "no ip command (install iproute2)"

id=gsh$$
hub=$id-hub
made=
work=$(mktemp -d "${TMPDIR:-/tmp}/netns.XXXXXX") || exit 1
cleanup() {
    for f in "$work"/pids.*; do
        # shellcheck disable=SC2046
        [ -f "$f" ] && kill -KILL $(cat "$f") 2>/dev/null
    done
    for ns in $made; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# What the failed ip command said, on one line.
ip_said() {
    _said=$(tr -s '\n\t' '  ' <"$work/err" | sed 's/^ *//; s/ *$//')
    echo "${_said:-ip printed no error}"
}

add_ns() {
    ip netns add "$1" 2>"$work/err" || return 1
    made="$made $1"
    ip -n "$1" link set lo up 2>>"$work/err"
}

add_ns "$hub" || skip_all "cannot make network namespaces here: $(ip_said)"
if ! ip -n "$hub" link add br0 type bridge 2>"$work/err" ||
    ! ip -n "$hub" link set br0 up 2>>"$work/err"; then
    skip_all "cannot make a bridge in a namespace: $(ip_said)"
fi
i=0
while [ $i -lt "$k" ]; do
    ns=$id-$i
    if ! add_ns "$ns" ||
        ! ip -n "$hub" link add "v$i" type veth peer name eth0 netns "$ns" 2>>"$work/err" ||
        ! ip -n "$hub" link set "v$i" master br0 up 2>>"$work/err" ||
        ! ip -n "$ns" addr add "10.77.0.$((i + 1))/24" dev eth0 2>>"$work/err" ||
        ! ip -n "$ns" link set eth0 up 2>>"$work/err"; then
        skip_all "cannot join namespaces by veth pairs here: $(ip_said)"
    fi
    i=$((i + 1))
done

# Without a network transport, PEs on different hosts cannot reach each
# other: keep them in one namespace (the bootstrap still crosses a veth).
spread=$k
if "$top_build/tools/gshmem-info" 2>/dev/null | grep -q '^transports:.*none (other nodes)'; then
    echo "NOTE: this build has no network transport: the PE programs run in namespace $id-0"
    spread=1
fi
n=$((k * per))
echo "run.sh: $k namespace(s) on bridge br0 in $hub, 10.77.0.0/24; $n PEs," \
    "rank r in $id-<r mod $spread>"

# run_one PROGRAM SPREAD [WANT]: PROGRAM on $n PEs over SPREAD namespaces;
# with WANT (an extended regex), every PE must fail (not by the timeout)
# and some PE's stderr match it.
run_one() {
    name=$1 over=$2 want=${3:-}
    case $name in
    */*) exe=$name ;;
    *) exe=$top_build/tests/pe/$name ;;
    esac
    if [ ! -x "$exe" ]; then
        fail "$name: $exe is not built"
        return
    fi
    dir=$work/$(basename "$exe")
    mkdir -p "$dir"
    r=0
    : >"$work/pids.run"
    # A new secret per job.  It goes by environment, not on the command
    # lines of timeout and env, which every user can read.
    GSHMEM_UID=10.77.0.1:5000:$(new_secret)
    export GSHMEM_UID
    while [ $r -lt $n ]; do
        ns=$id-$((r % over))
        (
            timeout -k 5 "$limit" ip netns exec "$ns" env UCX_TLS="$ucx_tls" \
                GSHMEM_BOOTSTRAP=uid GSHMEM_TEST_MULTIHOST=1 \
                GSHMEM_UID_RANK=$r GSHMEM_UID_SIZE=$n \
                GSHMEM_UID_TIMEOUT=30 "$exe" >"$dir/out.$r" 2>"$dir/err.$r"
            echo $? >"$dir/status.$r"
        ) &
        echo $! >>"$work/pids.run"
        r=$((r + 1))
    done
    wait
    rm -f "$work/pids.run"
    statuses=
    all=
    r=0
    while [ $r -lt $n ]; do
        s=$(cat "$dir/status.$r" 2>/dev/null || echo "?")
        statuses="$statuses $s"
        [ -z "$all" ] && all=$s
        [ "$s" = "$all" ] || all=mixed
        r=$((r + 1))
    done
    verdict=$(cat "$dir"/out.* | grep -E ': (PASS|FAIL|SKIP)' | head -n 1)
    if [ -n "$want" ]; then
        case " $statuses " in
        *" 0 "* | *" 124 "* | *" 137 "* | *"?"*) ok= ;;
        *) ok=$(cat "$dir"/err.* | grep -E -m 1 "$want") ;;
        esac
        if [ -n "$ok" ]; then
            pass "$(basename "$name") on $n PEs in $over namespace(s) refused: $ok"
        else
            fail "$name on $n PEs in $over namespace(s): expected every PE to fail with" \
                "'$want'; exit statuses by rank:$statuses"
            show "$dir"/out.* "$dir"/err.*
        fi
        return
    fi
    case $all in
    0) pass "$(basename "$name") on $n PEs in $over namespace(s): ${verdict:-all exited 0}" ;;
    77) skip "$name on $n PEs: ${verdict:-all exited 77}" ;;
    *)
        fail "$name on $n PEs in $over namespace(s): exit statuses by rank:$statuses"
        show "$dir"/out.* "$dir"/err.*
        ;;
    esac
}

run_one "$top_build/tests/uid/boot" "$k"
for prog in "$@"; do
    run_one "$prog" "$spread"
done

# The node transport maps its peers' memory, so it reaches only PEs of one
# host: across namespaces every PE ends at init with one line, no hang (in
# a subshell, for its environment; its verdict is counted here).
(
    GSHMEM_TRANSPORT=node GSHMEM_DISABLE_P2P=1
    export GSHMEM_TRANSPORT GSHMEM_DISABLE_P2P
    limit=30 n_fail=0
    run_one setup "$k" "transport node: PE [0-9]+ runs on another host, and the node transport \
reaches only PEs of this host"
    [ "$n_fail" -eq 0 ]
)
if [ $? -eq 0 ]; then n_pass=$((n_pass + 1)); else n_fail=$((n_fail + 1)); fi

# A PE killed: the others, on other hosts, end naming it.
i=0
list=
while [ $i -lt "$spread" ]; do
    list="$list $id-$i"
    i=$((i + 1))
done
UCX_TLS=$ucx_tls DEAD_PE_NS=$list DEAD_PE_ADDR=10.77.0.1 "$top_src/tests/uid/dead_pe.sh" >"$work/dead" 2>&1
s=$?
if [ $s -eq 0 ]; then
    pass "dead_pe.sh over $spread namespace(s): $(tail -n 1 "$work/dead")"
else
    fail "dead_pe.sh over $spread namespace(s): status $s"
fi
sed -n 's/^\(PASS\|FAIL\|SKIP\): /    dead_pe.sh: &/p' "$work/dead"
finish run.sh
