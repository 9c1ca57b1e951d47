#!/bin/sh
# device_bench.sh [BUILDDIR] - run the device-API benchmarks (device_lat,
# device_bw, device_rate; built by `make` in BUILDDIR/perftest) REPS times
# in both modes - P2P (peers by load/store) and proxy (GSHMEM_DISABLE_P2P=1:
# the proxy channels and UCX) - and device_rate in the proxy mode with
# GSHMEM_PROXY_THREADS=1, 2 and 4; then print the median of every figure as
# tables.  Every JSON line, tagged with "rep", goes to
# results/device-<stamp>.jsonl, the launchers' stderr to
# results/device-<stamp>.log.
#
# Environment:
#   REPS=5           repetitions of everything
#   QUICK=1          short iteration counts (for checking the script)
#   ONLY="device_lat device_rate"   run only these programs
#   GSHMEM_TEST_LAUNCHER   the launcher (default mpirun), called as
#                    <launcher> [--allow-run-as-root] --oversubscribe
#                    --bind-to none -np 2 <program> [args]
#   RUN_TIMEOUT=300  seconds before one run is killed
# Summarize an older run: device_bench.sh --summary results/device-<stamp>.jsonl
set -u

here=$(cd "$(dirname "$0")" && pwd)

summarize() {
    python3 - "$1" <<'EOF'
import json, statistics, sys
from collections import defaultdict

samples = defaultdict(list)
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    metric = next(k for k in ("lat_ns", "MBps", "Mmsgps") if k in r)
    key = (r["bench"], r["scope"], r["bytes"], r["mode"], r["proxy_threads"], metric)
    samples[key].append(r[metric])
med = {k: statistics.median(v) for k, v in samples.items()}
n = {k: len(v) for k, v in samples.items()}

def cell(key, unit=""):
    if key not in med:
        return "-"
    v = med[key]
    if unit == "us":
        return f"{v / 1000:.3g}" if v < 100000 else f"{v / 1000:.0f}"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"

def size(b):
    return f"{b >> 20} MiB" if b >= 1 << 20 else f"{b >> 10} KiB" if b >= 1024 else f"{b} B"

reps = max(n.values()) if n else 0
print(f"\nmedians of {reps} runs (host lanes, 2 PEs; P2P = load/store, proxy = GSHMEM_DISABLE_P2P=1)")

print("\nlatency, us (lower is better)")
print(f"{'bench':<22}{'scope':<8}{'size':>8}{'P2P':>10}{'proxy':>10}")
for bench in ("dev_put_lat", "dev_p_pingpong", "dev_signal_pingpong"):
    rows = sorted({(k[1], k[2]) for k in med if k[0] == bench},
                  key=lambda s: (("thread", "warp", "block").index(s[0]), s[1]))
    for scope, b in rows:
        p2p = cell((bench, scope, b, "p2p", 1, "lat_ns"), "us")
        prx = cell((bench, scope, b, "proxy", 1, "lat_ns"), "us")
        print(f"{bench:<22}{scope:<8}{size(b):>8}{p2p:>10}{prx:>10}")

sizes = sorted({k[2] for k in med if k[0] == "dev_put_bw"})
if sizes:
    print("\ndev_put_bw, MB/s (put_nbi, windows of 64 + quiet; higher is better)")
    cols = [(s, m) for s in ("thread", "warp", "block") for m in ("p2p", "proxy")]
    print(f"{'size':>8}" + "".join(f"{s + ' ' + ('P2P' if m == 'p2p' else 'proxy'):>15}" for s, m in cols))
    for b in sizes:
        print(f"{size(b):>8}" + "".join(f"{cell(('dev_put_bw', s, b, m, 1, 'MBps')):>15}" for s, m in cols))

rate = {k: v for k, v in med.items() if k[0] == "dev_msg_rate"}
if rate:
    print("\ndev_msg_rate, million 8-byte put_nbi per second (32 lanes; higher is better)")
    for k in sorted(rate, key=lambda k: (k[3] != "p2p", k[4])):
        label = "P2P (stores)" if k[3] == "p2p" else f"proxy, {k[4]} proxy thread{'s' if k[4] > 1 else ''}"
        print(f"  {label:<28}{rate[k]:>10.3f}")
EOF
}

if [ "${1:-}" = --summary ]; then
    summarize "${2:?usage: device_bench.sh --summary FILE.jsonl}"
    exit $?
fi

build=${1:-${GSHMEM_TOP_BUILDDIR:-$(cd "$here/.." && pwd)}}
reps=${REPS:-5}
run_timeout=${RUN_TIMEOUT:-300}
launcher=${GSHMEM_TEST_LAUNCHER:-mpirun}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
stamp=$(date +%Y%m%d-%H%M%S)
results_dir=$here/results
results=$results_dir/device-$stamp.jsonl
log=$results_dir/device-$stamp.log
programs=${ONLY:-device_lat device_bw device_rate}

for p in $programs; do
    if [ ! -x "$build/perftest/$p" ]; then
        echo "device_bench: $build/perftest/$p is not built (run make in $build)" >&2
        exit 1
    fi
done
mkdir -p "$results_dir"
: >"$results" || exit 1
: >"$log"

# run REP PROGRAM [VAR=value ...]: one run, its JSON lines tagged with rep.
run() {
    rep=$1 prog=$2
    shift 2
    case $prog in
    device_lat) args=${QUICK:+-n 200 -w 20} ;;
    device_bw) args=${QUICK:+-n 2000 -b 1048576} ;;
    *) args=${QUICK:+-n 500} ;;
    esac
    out=$(mktemp "${TMPDIR:-/tmp}/device_bench.XXXXXX") || exit 1
    # shellcheck disable=SC2086 # $launcher and $args are word lists
    env "$@" timeout -k 10 "$run_timeout" $launcher $root --oversubscribe --bind-to none -np 2 \
        "$build/perftest/$prog" $args >"$out" 2>>"$log"
    status=$?
    [ $status -eq 0 ] || echo "device_bench: $prog $* (rep $rep) exited $status; see $log" >&2
    grep '^{' "$out" | sed "s/^{/{\"rep\":$rep,/" >>"$results"
    rm -f "$out"
}

selected() { case " $programs " in *" $1 "*) return 0 ;; esac; return 1; }

echo "device_bench: REPS=$reps${QUICK:+ QUICK}; results: $results"
rep=1
while [ $rep -le "$reps" ]; do
    for prog in device_lat device_bw; do
        selected $prog || continue
        run $rep $prog GSHMEM_DISABLE_P2P=0
        run $rep $prog GSHMEM_DISABLE_P2P=1
    done
    if selected device_rate; then
        run $rep device_rate GSHMEM_DISABLE_P2P=0
        for t in 1 2 4; do
            run $rep device_rate GSHMEM_DISABLE_P2P=1 GSHMEM_PROXY_THREADS=$t
        done
    fi
    echo "device_bench: rep $rep of $reps done"
    rep=$((rep + 1))
done
summarize "$results"
