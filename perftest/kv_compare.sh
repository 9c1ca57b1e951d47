#!/bin/sh
# perftest/kv_compare.sh - KV requests between two jobs (two processes,
# each its own launcher command), gshmem_kv against NIXL on the same
# shapes, same run, sides interleaved, medians of REPS (default 3):
#   gshmem-direct   kv_xjob, the same-host direct copy (the default)
#   gshmem-ucx      kv_xjob with GSHMEM_KV_DIRECT=0 (UCX; tcp over loopback
#                   here: UCX 1.13 with peer failure detection takes no shm lane)
#   nixl            kv_nixl.py: NIXL's UCX backend, one descriptor per block,
#                   layer and K/V, as vLLM's NixlConnector builds them
# Each request: k scattered blocks (nothing adjacent) of every layer, K
# and V, read; the last one checked byte for byte on both sides.
# NIXL: PYTHON (default /tmp/nixlenv/bin/python) with nixl-cu12 installed
# (pip install --no-deps nixl-cu12 numpy); without it the nixl column says so.
# Prints a markdown table: median us per request, GB/s, the ratios.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/.." && pwd)}
src=${GSHMEM_TOP_SRCDIR:-$build}
py=${PYTHON:-/tmp/nixlenv/bin/python}
reps=${REPS:-3}
out=$(mktemp)
GSHMEM_KV_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export GSHMEM_KV_SECRET
have_nixl=1
"$py" -c 'import numpy
try:
    import nixl._api
except ImportError:
    import nixl_cu12._api' 2>/dev/null || have_nixl=0
# name: block bytes, blocks per request, layers, timed requests
configs=${CONFIGS:-"4k:4096:128:1:30 16k:16384:128:1:30 64k:65536:128:1:20 1m:1048576:16:1:20 4m:4194304:8:1:10 llama8b:32768:126:32:5"}
one() { # IMPL ARGS... : one serve/pull pair, the pull's lines to $out
    impl=$1
    shift
    d=$(mktemp -d)
    case $impl in
    nixl)
        "$py" "$src/perftest/kv_nixl.py" "$@" serve "$d" >/dev/null 2>&1 &
        s=$!
        BENCH_IMPL=nixl "$py" "$src/perftest/kv_nixl.py" "$@" pull "$d" 2>/dev/null |
            grep '^{' | sed "s/^/$cfg /" >>"$out"
        ;;
    *)
        [ "$impl" = gshmem-ucx ] && GSHMEM_KV_DIRECT=0 && export GSHMEM_KV_DIRECT
        timeout 300 "$build/tools/gshmemrun" -np 1 "$build/perftest/kv_xjob" "$@" serve "$d" >/dev/null 2>&1 &
        s=$!
        BENCH_IMPL=$impl timeout 300 "$build/tools/gshmemrun" -np 1 "$build/perftest/kv_xjob" "$@" pull "$d" |
            grep '^{' | sed "s/^/$cfg /" >>"$out"
        unset GSHMEM_KV_DIRECT
        ;;
    esac
    wait $s
    rm -rf "$d"
}
for rep in $(seq 1 "$reps"); do
    for c in $configs; do
        cfg=${c%%:*}
        set -- $(echo "${c#*:}" | tr ':' ' ')
        args="-b $1 -k $2 -l $3 -n $4 -w 2"
        impls="gshmem-direct gshmem-ucx"
        [ $have_nixl = 1 ] && impls="$impls nixl"
        # Which side goes first turns with the rep.
        [ $((rep % 2)) = 0 ] && impls=$(echo "$impls" | tr ' ' '\n' | tac | tr '\n' ' ')
        for impl in $impls; do
            # shellcheck disable=SC2086
            one "$impl" $args
        done
    done
done
python3 - "$out" "$have_nixl" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    cfg, js = line.split(" ", 1)
    d = json.loads(js)
    key = (cfg, d["impl"])
    for m in ("lat_us",):
        if d["bench"].endswith("_lat"):
            rows.setdefault(key, {}).setdefault("lat", []).append(d["lat_us"])
            rows[key]["bytes"] = d["bytes"]
        if d["bench"] == "kv_connect":
            rows.setdefault(key, {}).setdefault("conn", []).append(d["lat_us"])
cfgs = []
for cfg, _ in rows:
    if cfg not in cfgs:
        cfgs.append(cfg)
med = lambda k, f: statistics.median(rows[k][f]) if k in rows and f in rows[k] else None
print("| request | bytes | gshmem direct us (GB/s) | gshmem UCX us (GB/s) | NIXL us (GB/s) | direct / NIXL speed | UCX / NIXL speed |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for cfg in cfgs:
    cells, lat = [], {}
    nbytes = None
    for impl in ("gshmem-direct", "gshmem-ucx", "nixl"):
        l = med((cfg, impl), "lat")
        lat[impl] = l
        if l:
            nbytes = rows[(cfg, impl)]["bytes"]
            cells.append("%.0f (%.2f)" % (l, nbytes / l / 1e3))
        else:
            cells.append("n/a" if sys.argv[2] == "1" else "not installed")
    ratio = lambda a: ("%.2fx" % (lat["nixl"] / lat[a])) if lat.get("nixl") and lat.get(a) else "n/a"
    print("| %s | %s | %s | %s | %s | %s | %s |" % (cfg, nbytes, cells[0], cells[1], cells[2],
                                                  ratio("gshmem-direct"), ratio("gshmem-ucx")))
conn = {impl: [v for (c, i), r in rows.items() if i == impl for v in r.get("conn", [])]
        for impl in ("gshmem-direct", "gshmem-ucx", "nixl")}
print("\nconnect (median ms): " + ", ".join("%s %.1f" % (i, statistics.median(v) / 1e3)
                                         for i, v in conn.items() if v))
PY
[ -n "${KEEP:-}" ] || rm -f "$out"
