#!/bin/sh
# perftest/kv_compare.sh - KV requests between two jobs (two processes,
# each its own launcher command), gshmem_kv against NIXL on the same
# shapes, same run, sides interleaved, medians of REPS (default 3):
#   gshmem-direct   kv_xjob, the same-host direct copy (the default)
#   gshmem-ucx      kv_xjob with GSHMEM_KV_DIRECT=0 (UCX; tcp over loopback
#                   here: UCX 1.13 with peer failure detection takes no shm lane)
#   nixl            kv_nixl.py: NIXL's UCX backend, one descriptor per block,
#                   layer and K/V, as vLLM's NixlConnector builds them
#                   (UCX's own choice of transports: shared memory here)
#   nixl-tcp        the same with UCX_TLS=tcp,self: the transport gshmem-ucx
#                   rides, so UCX / NIXL-tcp compares like with like
#   mooncake        kv_mooncake.py: Mooncake's Transfer Engine, tcp,
#                   P2PHANDSHAKE, one entry per block, layer and K/V in one
#                   batch_transfer_sync_read
#   ucx_perftest    the transport's own limit: ucp_put_bw (its bandwidth
#                   test, a window of operations in flight) of block-sized
#                   messages over UCX_TLS=tcp (what gshmem-ucx rides), GB/s;
#                   its ucp_get is one get at a time, a latency figure
#                   (8 MB/s at 16 KiB here), no limit to set beside a batch
# Each request: k scattered blocks (nothing adjacent) of every layer, K
# and V, read; the last one checked byte for byte on both sides.
# NIXL: PYTHON (default /tmp/nixlenv/bin/python) with nixl-cu12 installed
# (pip install --no-deps nixl-cu12 numpy); Mooncake: MOONCAKE_PYTHON
# (default /tmp/mcenv/bin/python) with mooncake-transfer-engine-non-cuda
# and numpy; without them their columns say so.
# Prints a markdown table: median us per request, GB/s, the ratios.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/.." && pwd)}
src=${GSHMEM_TOP_SRCDIR:-$build}
# shellcheck source=perftest/kv_pairs.sh
. "$src/perftest/kv_pairs.sh"
mc_py=${MOONCAKE_PYTHON:-/tmp/mcenv/bin/python}
have_mc=1
"$mc_py" -c 'import numpy, mooncake.engine' 2>/dev/null || have_mc=0
have_perftest=1
command -v ucx_perftest >/dev/null 2>&1 || have_perftest=0
# name: block bytes, blocks per request, layers, timed requests
configs=${CONFIGS:-"4k:4096:128:1:30 16k:16384:128:1:30 64k:65536:128:1:20 1m:1048576:16:1:20 4m:4194304:8:1:10 llama8b:32768:126:32:5"}
one() { # IMPL ARGS... : one serve/pull pair, the pull's lines to $out
    impl=$1
    shift
    d=$(mktemp -d)
    case $impl in
    ucx_perftest) # $1 is -b, $2 the block size
        port=$((20000 + $$ % 10000))
        UCX_TLS=tcp,self timeout 120 ucx_perftest -t ucp_put_bw -s "$2" -n 2000 -p "$port" \
            >/dev/null 2>&1 &
        s=$!
        sleep 0.5
        UCX_TLS=tcp,self timeout 120 ucx_perftest 127.0.0.1 -t ucp_put_bw -s "$2" -n 2000 \
            -p "$port" 2>/dev/null | awk -v c="$cfg" -v b="$2" \
            '/^Final:/ {printf "%s {\"bench\": \"ucx_put_bw\", \"impl\": \"ucx_perftest\", \"bytes\": %s, \"gbps\": %f}\n", c, b, $7 * 1048576 / 1e9}' >>"$out"
        ;;
    mooncake)
        "$mc_py" "$src/perftest/kv_mooncake.py" "$@" serve "$d" >/dev/null 2>&1 &
        s=$!
        BENCH_IMPL=mooncake timeout 300 "$mc_py" "$src/perftest/kv_mooncake.py" "$@" pull "$d" \
            2>/dev/null | grep '^{' | sed "s/^/$cfg /" >>"$out"
        ;;
    nixl | nixl-tcp)
        tls=${UCX_TLS:-}
        [ "$impl" = nixl-tcp ] && UCX_TLS=tcp,self && export UCX_TLS
        "$py" "$src/perftest/kv_nixl.py" "$@" serve "$d" >/dev/null 2>&1 &
        s=$!
        BENCH_IMPL=$impl "$py" "$src/perftest/kv_nixl.py" "$@" pull "$d" 2>/dev/null |
            grep '^{' | sed "s/^/$cfg /" >>"$out"
        if [ -n "$tls" ]; then UCX_TLS=$tls; else unset UCX_TLS; fi
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
pair() { # IMPL BLOCK BLOCKS LAYERS REQUESTS
    one "$1" -b "$2" -k "$3" -l "$4" -n "$5" -w 2
}
impls="gshmem-direct gshmem-ucx"
[ $have_nixl = 1 ] && impls="$impls nixl nixl-tcp"
[ $have_mc = 1 ] && impls="$impls mooncake"
[ $have_perftest = 1 ] && impls="$impls ucx_perftest"
kv_rounds "$reps" "$configs" "$impls" pair
python3 - "$out" "$have_nixl" "$have_mc" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    cfg, js = line.split(" ", 1)
    d = json.loads(js)
    key = (cfg, d["impl"])
    if d["bench"].endswith("_lat"):
        rows.setdefault(key, {}).setdefault("lat", []).append(d["lat_us"])
        rows[key]["bytes"] = d["bytes"]
    if d["bench"] == "kv_connect":
        rows.setdefault(key, {}).setdefault("conn", []).append(d["lat_us"])
    if d["bench"] == "ucx_put_bw":
        rows.setdefault(key, {}).setdefault("gbps", []).append(d["gbps"])
cfgs = []
for cfg, _ in rows:
    if cfg not in cfgs:
        cfgs.append(cfg)
med = lambda k, f: statistics.median(rows[k][f]) if k in rows and f in rows[k] else None
impls = ("gshmem-direct", "gshmem-ucx", "nixl", "nixl-tcp", "mooncake")
missing = {"nixl": sys.argv[2] != "1", "nixl-tcp": sys.argv[2] != "1",
           "mooncake": sys.argv[3] != "1"}
print("| request | bytes | gshmem direct us (GB/s) | gshmem UCX tcp us (GB/s) | NIXL us (GB/s) "
      "| NIXL tcp us (GB/s) | Mooncake tcp us (GB/s) | ucx_perftest put_bw GB/s "
      "| direct / NIXL | UCX / NIXL tcp | UCX / Mooncake | UCX / ucx_perftest |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for cfg in cfgs:
    cells, lat, gbps = [], {}, {}
    nbytes = None
    for impl in impls:
        l = med((cfg, impl), "lat")
        lat[impl] = l
        if l:
            nbytes = rows[(cfg, impl)]["bytes"]
            gbps[impl] = nbytes / l / 1e3
            cells.append("%.0f (%.2f)" % (l, gbps[impl]))
        else:
            cells.append("not installed" if missing.get(impl) else "n/a")
    perf = med((cfg, "ucx_perftest"), "gbps")
    ratio = lambda a, b: ("%.2fx" % (lat[b] / lat[a])) if lat.get(a) and lat.get(b) else "n/a"
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        cfg, nbytes, cells[0], cells[1], cells[2], cells[3], cells[4],
        "%.3f" % perf if perf else "n/a", ratio("gshmem-direct", "nixl"),
        ratio("gshmem-ucx", "nixl-tcp"), ratio("gshmem-ucx", "mooncake"),
        "%.2fx" % (gbps["gshmem-ucx"] / perf) if perf and gbps.get("gshmem-ucx") else "n/a"))
conn = {impl: [v for (c, i), r in rows.items() if i == impl for v in r.get("conn", [])]
        for impl in impls}
print("\nconnect (median ms): " + ", ".join("%s %.1f" % (i, statistics.median(v) / 1e3)
                                         for i, v in conn.items() if v))
PY
[ -n "${KEEP:-}" ] || rm -f "$out"
