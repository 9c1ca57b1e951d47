#!/bin/sh
# proxy_rate.sh [BUILDDIR] - the proxy's message rate against UCX's own, in
# the same run: for each UCX_TLS of TLS_LIST, REPS times, device_rate (8-byte
# put_nbi from 32 host lanes, GSHMEM_DISABLE_P2P=1: every put through the
# proxy channels) with GSHMEM_PROXY_THREADS=1, 2 and 4, and
# `ucx_perftest -t ucp_put_bw -s 8` (server and client on localhost) over
# the same UCX_TLS.  Prints the medians and proxy / ucx_perftest (issue 17's
# targets, one proxy thread: >= 0.5x over posix, >= 1.0x over tcp).  Every
# figure goes to results/proxy-rate-<stamp>.jsonl, stderr to .log.
#
# Environment:
#   REPS=5                 repetitions
#   QUICK=1                short counts (for checking the script)
#   TLS_LIST="posix,self tcp,self"
#   THREADS_LIST="1 2 4"
#   UCX_ITERS=1000000      ucx_perftest -n (QUICK: 20000)
#   RATE_ITERS=32000       device_rate -n, messages per lane (QUICK: 500): 32
#                          lanes x 32000, about the messages of ucx_perftest's
#                          run.  At 4000 (128000 messages) half of them fit
#                          the channels' rings before any lane waits for room,
#                          so the figure was partly the lanes' rate of filling
#                          them (0.71x where the steady rate is 0.51x)
#   GSHMEM_TEST_LAUNCHER   the launcher (default mpirun)
#   PORT=13337             ucx_perftest's port
#   RUN_TIMEOUT=300        seconds before one run is killed
set -u

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${GSHMEM_TOP_BUILDDIR:-$(cd "$here/.." && pwd)}}
reps=${REPS:-5}
tls_list=${TLS_LIST:-posix,self tcp,self}
threads_list=${THREADS_LIST:-1 2 4}
if [ -n "${QUICK:-}" ]; then
    ucx_iters=${UCX_ITERS:-20000} rate_iters=${RATE_ITERS:-500}
else
    ucx_iters=${UCX_ITERS:-1000000} rate_iters=${RATE_ITERS:-32000}
fi
port=${PORT:-13337}
run_timeout=${RUN_TIMEOUT:-300}
launcher=${GSHMEM_TEST_LAUNCHER:-mpirun}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
stamp=$(date +%Y%m%d-%H%M%S)
mkdir -p "$here/results"
results=$here/results/proxy-rate-$stamp.jsonl
log=$here/results/proxy-rate-$stamp.log
: >"$results" || exit 1
: >"$log"

if [ ! -x "$build/perftest/device_rate" ]; then
    echo "proxy_rate: $build/perftest/device_rate is not built (run make in $build)" >&2
    exit 1
fi
have_ucx=1
command -v ucx_perftest >/dev/null 2>&1 || {
    have_ucx=0
    echo "proxy_rate: no ucx_perftest on PATH (Debian: ucx-utils); its column stays empty" >&2
}

# ucx TLS REP: one ucx_perftest pair; msg/s from the client's "Final:" line.
ucx() {
    UCX_TLS=$1 timeout -k 5 "$run_timeout" ucx_perftest -p "$port" -t ucp_put_bw -s 8 \
        -n "$ucx_iters" >>"$log" 2>&1 &
    server=$!
    sleep 1
    rate=$(UCX_TLS=$1 timeout -k 5 "$run_timeout" ucx_perftest localhost -p "$port" \
        -t ucp_put_bw -s 8 -n "$ucx_iters" 2>>"$log" | awk '/^Final:/ { print $9 }')
    wait $server
    if [ -n "$rate" ]; then
        echo "{\"rep\":$2,\"tls\":\"$1\",\"side\":\"ucx_perftest\",\"Mmsgps\":$(awk "BEGIN { print $rate / 1e6 }")}" >>"$results"
    else
        echo "proxy_rate: ucx_perftest over $1 (rep $2) gave no figure; see $log" >&2
    fi
}

# proxy TLS THREADS REP: one device_rate run through the proxy.
proxy() {
    # shellcheck disable=SC2086 # $launcher is a word list
    line=$(env UCX_TLS="$1" GSHMEM_DISABLE_P2P=1 GSHMEM_PROXY_THREADS="$2" \
        timeout -k 10 "$run_timeout" $launcher $root --oversubscribe --bind-to none -np 2 \
        "$build/perftest/device_rate" -n "$rate_iters" 2>>"$log" | grep '^{' | tail -1)
    if [ -n "$line" ]; then
        echo "$line" | sed "s/^{/{\"rep\":$3,\"tls\":\"$1\",\"side\":\"proxy\",/" >>"$results"
    else
        echo "proxy_rate: device_rate over $1, $2 proxy threads (rep $3) failed; see $log" >&2
    fi
}

echo "proxy_rate: REPS=$reps${QUICK:+ QUICK}; results: $results"
rep=1
while [ $rep -le "$reps" ]; do
    for tls in $tls_list; do
        # Alternate which side goes first, so both see the same drifts.
        if [ $((rep % 2)) = 1 ] && [ $have_ucx = 1 ]; then ucx "$tls" $rep; fi
        for t in $threads_list; do
            proxy "$tls" "$t" $rep
        done
        if [ $((rep % 2)) = 0 ] && [ $have_ucx = 1 ]; then ucx "$tls" $rep; fi
    done
    echo "proxy_rate: rep $rep of $reps done"
    rep=$((rep + 1))
done

python3 - "$results" <<'EOF'
import json, statistics, sys
from collections import defaultdict

s = defaultdict(list)
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    key = (r["tls"], r.get("proxy_threads", 0) if r["side"] == "proxy" else 0, r["side"])
    s[key].append(r["Mmsgps"])
med = {k: statistics.median(v) for k, v in s.items()}
print("\n8-byte put rate, million messages/s (medians; proxy: device_rate, 32 host lanes, 2 PEs)")
print(f"{'UCX_TLS':<14}{'proxy thr':>10}{'proxy':>10}{'ucx_perftest':>14}{'ratio':>8}")
for tls in sorted({k[0] for k in med}):
    u = med.get((tls, 0, "ucx_perftest"))
    for t in sorted(k[1] for k in med if k[0] == tls and k[2] == "proxy"):
        p = med[(tls, t, "proxy")]
        ratio = f"{p / u:.2f}x" if u else "-"
        us = f"{u:.3g}" if u else "-"
        print(f"{tls:<14}{t:>10}{p:>10.3g}{us:>14}{ratio:>8}")
EOF
