#!/usr/bin/env bash
# compare_net.sh - the host-API latency benchmarks over UCX: gshmem with
# GSHMEM_DISABLE_P2P=1 (every peer through the network transport), Open MPI's
# OSHMEM, and ucx_perftest's ucp_put_lat / ucp_get / ucp_atomic_add, all on
# the same UCX_TLS, REPS times each (default 5), alternating; prints the
# medians and the ratios.  Transports: TLS_LIST (default "posix,self tcp,self").
#
#   GSHMEMCC, GSHMEMRUN, OSHCC, OSHRUN as in compare.sh; ITERS=50000.
set -u
here=$(cd "$(dirname "$0")" && pwd)
reps=${REPS:-5}
iters=${ITERS:-50000}
tls_list=${TLS_LIST:-"posix,self tcp,self"}
gshmemcc=${GSHMEMCC:-$here/../tools/gshmemcc}
gshmemrun=${GSHMEMRUN:-$here/../tools/gshmemrun}
oshcc=${OSHCC:-oshcc}
oshrun=${OSHRUN:-oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma --mca pml ob1 --mca btl self,vader}
build=$here/build/net
mkdir -p "$build" "$here/results"
out=$here/results/net-$(date +%Y%m%d-%H%M%S).txt

for prog in p_pingpong get_lat amo_lat; do
    "$gshmemcc" -O2 -std=c11 -I"$here" "$here/$prog.c" -o "$build/$prog.gshmem" || exit 1
    if command -v "$oshcc" >/dev/null 2>&1; then
        "$oshcc" -O2 -std=c11 -I"$here" "$here/$prog.c" -o "$build/$prog.oshmem" 2>/dev/null ||
            rm -f "$build/$prog.oshmem"
    fi
done

# ucx_perftest TEST: one server and one client on this host; prints the
# "typical" latency (its median-like figure), in ns.
ucx_lat() {
    local test=$1 tls=$2 port=$((20000 + RANDOM % 20000))
    UCX_TLS=$tls timeout 60 ucx_perftest -p "$port" -t "$test" -s 8 -n "$iters" >/dev/null 2>&1 &
    local srv=$!
    sleep 0.5
    UCX_TLS=$tls timeout 60 ucx_perftest -p "$port" localhost -t "$test" -s 8 -n "$iters" 2>/dev/null |
        awk '/^Final:/ { printf "%.1f\n", $3 * 1000 }'
    wait "$srv" 2>/dev/null
}

# lat SIDE PROG BENCH TLS: one run, the lat_ns of BENCH.
lat() {
    local side=$1 prog=$2 bench=$3 tls=$4 exe=$build/$2.$1
    [ -x "$exe" ] || return
    if [ "$side" = gshmem ]; then
        GSHMEM_DISABLE_P2P=1 UCX_TLS=$tls timeout 120 "$gshmemrun" -np 2 "$exe" -n "$iters"
    else
        UCX_TLS=$tls timeout 120 $oshrun -x UCX_TLS -np 2 "$exe" -n "$iters"
    fi 2>/dev/null | grep "\"bench\":\"$bench\"" | sed 's/.*"lat_ns":\([0-9.]*\).*/\1/'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

{
printf '%-10s %-14s %12s %12s %12s %9s %9s\n' tls bench gshmem oshmem ucx_perftest g/ucx g/osh
for tls in $tls_list; do
    for row in "p_pingpong p_pingpong ucp_put_lat" "get_lat g_lat ucp_get" "amo_lat fetch_add_lat ucp_fadd"; do
        set -- $row
        g=""; o=""; u=""
        for rep in $(seq "$reps"); do
            g="$g $(lat gshmem "$1" "$2" "$tls")"
            o="$o $(lat oshmem "$1" "$2" "$tls")"
            u="$u $(ucx_lat "$3" "$tls")"
        done
        gm=$(echo $g | tr ' ' '\n' | grep . | median)
        om=$(echo $o | tr ' ' '\n' | grep . | median)
        um=$(echo $u | tr ' ' '\n' | grep . | median)
        ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2fx\n", a / b }'; }
        printf '%-10s %-14s %12s %12s %12s %9s %9s\n' "$tls" "$2" "$gm" "$om" "$um" "$(ratio "$gm" "$um")" "$(ratio "$gm" "$om")"
    done
done
echo "lat_ns, median of $reps; ucx_perftest: its typical latency; gshmem with GSHMEM_DISABLE_P2P=1"
} | tee "$out"
