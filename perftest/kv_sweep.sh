#!/bin/sh
# perftest/kv_sweep.sh - gshmem_kv's own sweep in nixlbench's terms: block
# size x blocks per request, READ and WRITE, over every path a request can
# take here, same run, medians of REPS (default 3) runs of each run's
# median request.  A request moves k scattered blocks (nothing adjacent:
# one operation per block) of one layer's K and V: 2k blocks.
#   in-job ls        kv_bench, 2 PEs of one job, load/store (P2P mapping)
#   in-job posix     the same, GSHMEM_DISABLE_P2P=1 UCX_TLS=posix,self
#   in-job tcp       the same, GSHMEM_DISABLE_P2P=1 UCX_TLS=tcp,self
#   2 jobs direct    kv_xjob, two jobs (listen/connect), same-host copies
#   2 jobs tcp       kv_xjob, GSHMEM_KV_DIRECT=0 UCX_TLS=tcp,self
# Each cell: median us per request, GB/s, and million blocks per second
# (nixlbench's operations).  gst_verbs is not in it: the soft-RoCE rig is
# a TCG guest whose figures measure the emulator (tests/rdma/rig.tap checks
# its bytes).  Peers beside us (NIXL, Mooncake, ucx_perftest):
# kv_compare.sh.
#   CONFIGS="4k:1 ..."   block (4k, 64k, 1m, 4m or bytes) : blocks per request
#   PATHS="ls posix ..." which of ls posix tcp direct xtcp
#   MODES="read write"
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/.." && pwd)}
src=${GSHMEM_TOP_SRCDIR:-$build}
# reps, out, GSHMEM_KV_SECRET and kv_rounds (the order turning each rep).
# shellcheck source=perftest/kv_pairs.sh
. "$src/perftest/kv_pairs.sh"
trap 'rm -f "$out"' EXIT
configs=${CONFIGS:-"4k:1 4k:32 4k:1024 64k:1 64k:32 64k:256 1m:1 1m:32 4m:1 4m:8"}
paths=${PATHS:-"ls posix tcp direct xtcp"}
modes=${MODES:-"read write"}
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-512M}
run=$build/tools/gshmemrun

bytes_of() {
    case $1 in
    *k) echo $((${1%k} * 1024)) ;;
    *m) echo $((${1%m} * 1048576)) ;;
    *) echo "$1" ;;
    esac
}

# Timed requests: fewer for big ones, so each run takes about a second.
iters_of() { # BYTES_PER_REQUEST
    n=$((256 * 1048576 / $1))
    [ $n -gt 200 ] && n=200
    [ $n -lt 10 ] && n=10
    echo $n
}

one() { # PATH K MODE (kv_rounds: $cfg is the block)
    b=$(bytes_of "$cfg")
    k=$2 mode=$3
    n=$(iters_of $((2 * b * k)))
    tag="$cfg:$k $mode $1"
    case $1 in
    ls | posix | tcp)
        case $1 in
        ls) set -- env ;;
        posix) set -- env GSHMEM_DISABLE_P2P=1 UCX_TLS=posix,self ;;
        tcp) set -- env GSHMEM_DISABLE_P2P=1 UCX_TLS=tcp,self ;;
        esac
        timeout 300 "$@" "$run" -np 2 "$build/perftest/kv_bench" -b "$b" -k "$k" -n "$n" -w 3 \
            -m "$mode" | grep '_lat"' | sed "s/^/$tag /" >>"$out"
        ;;
    direct | xtcp)
        d=$(mktemp -d)
        case $1 in
        direct) set -- env ;;
        xtcp) set -- env GSHMEM_KV_DIRECT=0 UCX_TLS=tcp,self ;;
        esac
        timeout 300 "$@" "$run" -np 1 "$build/perftest/kv_xjob" -b "$b" -k "$k" -n "$n" -w 3 \
            -m "$mode" serve "$d" >/dev/null 2>&1 &
        s=$!
        timeout 300 "$@" "$run" -np 1 "$build/perftest/kv_xjob" -b "$b" -k "$k" -n "$n" -w 3 \
            -m "$mode" pull "$d" | grep '_lat"' | sed "s/^/$tag /" >>"$out"
        wait $s
        rm -rf "$d"
        ;;
    esac
}

# Each config once per mode: "block:k:mode" for kv_rounds.
rounds=
for c in $configs; do
    for mode in $modes; do
        rounds="$rounds $c:$mode"
    done
done
kv_rounds "$reps" "$rounds" "$paths" one
python3 - "$out" "$paths" <<'PY'
import json, statistics, sys
paths = sys.argv[2].split()
names = {"ls": "in-job load/store", "posix": "in-job UCX posix", "tcp": "in-job UCX tcp",
         "direct": "2 jobs direct", "xtcp": "2 jobs UCX tcp"}
rows, order = {}, []
for line in open(sys.argv[1]):
    cfg, mode, path, js = line.split(" ", 3)
    d = json.loads(js)
    key = (cfg, mode)
    if key not in order:
        order.append(key)
    rows.setdefault(key, {}).setdefault(path, []).append((d["lat_us"], d["bytes"]))
print("| block : blocks | mode | " + " | ".join(names[p] for p in paths) + " |")
print("| --- | --- | " + " | ".join("---" for _ in paths) + " |")
for cfg, mode in order:
    k = int(cfg.split(":")[1])
    cells = []
    for p in paths:
        v = rows[(cfg, mode)].get(p)
        if not v:
            cells.append("n/a")
            continue
        us = statistics.median(x[0] for x in v)
        nbytes = v[0][1]
        cells.append("%.1f us, %.2f GB/s, %.2f M/s" % (us, nbytes / us / 1e3, 2 * k / us))
    print("| %s | %s | %s |" % (cfg, mode, " | ".join(cells)))
print()
print("Each cell: median us per request, GB/s, million blocks per second (2k blocks a request).")
PY
