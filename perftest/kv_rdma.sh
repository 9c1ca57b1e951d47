#!/bin/sh
# perftest/kv_rdma.sh - libgshmem_kv between two jobs over soft-RoCE, in one
# boot of the rig's QEMU guest (tests/rdma/guest.sh): kv_xjob pulls (one
# job serves, another reads k scattered blocks a request, each its own
# launcher command) over
#   gshmem-verbs   the library's own RC QPs (GSHMEM_KV_VERBS=10.66.0.1),
#   gshmem-ucx-rc  UCX's rc_verbs (wired up over ud_verbs on GID 0:
#                  tests/rdma/README.md),
# beside perftest's ib_read_bw at the block size (the device's own limit,
# one QP, -n 200), on the one device rxe0, and prints one table of medians.
#
#   CONFIGS="4k:4096:64 64k:65536:16 1m:1048576:4" (name:block:blocks),
#   REPS=3, N=20 (timed requests a run), TIMEOUT=1200 (the whole guest).
# Under TCG emulation the figures measure the emulator, not hardware: they
# set each path's cost against perftest's on the same emulated device.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
if [ "${KV_RDMA_GUEST:-}" != 1 ]; then
    exec sh "$top/tests/rdma/guest.sh" --timeout "${TIMEOUT:-1200}" --share "$top" \
        --env KV_RDMA_GUEST=1 --env "CONFIGS=${CONFIGS:-}" --env "REPS=${REPS:-}" \
        --env "N=${N:-}" -- "sh '$here/kv_rdma.sh'"
fi
configs=${CONFIGS:-"4k:4096:64 64k:65536:16 1m:1048576:4"}
n=${N:-20}
# reps, out, GSHMEM_KV_SECRET and kv_rounds (the order turning each rep).
# shellcheck source=perftest/kv_pairs.sh
. "$here/kv_pairs.sh"
trap 'rm -f "$out"' EXIT
export GSHMEM_KV_DIRECT=0 SHMEM_SYMMETRIC_SIZE=64M
one() { # IMPL BLOCK BLOCKS (kv_rounds: $cfg is the request's name)
    if [ "$1" = ib_read_bw ]; then
        bw=$(sh "$top/tests/rdma/ib_pair.sh" ib_read_bw -s "$2" -n 200 2>/dev/null |
            awk -v s="$2" '$1 == s { print $4 }')
        [ -n "$bw" ] && echo "$cfg {\"bench\": \"ib_read_bw\", \"impl\": \"ib_read_bw\", \"gbps\": $(echo "$bw" | awk '{ print $1 * 1.048576 / 1000 }')}" >>"$out"
        return
    fi
    d=$(mktemp -d)
    case $1 in
    gshmem-verbs) e="GSHMEM_KV_VERBS=10.66.0.1 UCX_TLS=tcp,self UCX_NET_DEVICES=veth0" ;;
    *) e="UCX_TLS=rc_verbs,ud_verbs,self UCX_NET_DEVICES=rxe0:1 UCX_IB_GID_INDEX=0" ;;
    esac
    # shellcheck disable=SC2086
    env $e timeout 300 "$top/tools/gshmemrun" -np 1 "$top/perftest/kv_xjob" -b "$2" -k "$3" \
        -n "$n" -w 3 serve "$d" >/dev/null 2>&1 &
    s=$!
    # shellcheck disable=SC2086
    env $e BENCH_IMPL="$1" timeout 300 "$top/tools/gshmemrun" -np 1 "$top/perftest/kv_xjob" \
        -b "$2" -k "$3" -n "$n" -w 3 pull "$d" | grep '^{' | sed "s/^/$cfg /" >>"$out"
    wait $s
    rm -rf "$d"
}
kv_rounds "$reps" "$configs" "gshmem-verbs gshmem-ucx-rc ib_read_bw" one
python3 - "$out" <<'PY'
import json, statistics, sys
rows, cfgs = {}, []
for line in open(sys.argv[1]):
    cfg, js = line.split(" ", 1)
    d = json.loads(js)
    if cfg not in cfgs:
        cfgs.append(cfg)
    if d["bench"] in ("kv_xjob_read", "ib_read_bw"):
        rows.setdefault((cfg, d["impl"]), []).append(d["gbps"])
    if d["bench"] == "kv_connect":
        rows.setdefault(("connect", d["impl"]), []).append(d["lat_us"])
med = lambda k: statistics.median(rows[k]) if k in rows else None
f = lambda v: "-" if v is None else "%.3f" % v
r = lambda a, b: "-" if a is None or b is None or b == 0 else "%.2fx" % (a / b)
print("| request | gshmem verbs GB/s | gshmem UCX rc_verbs GB/s | ib_read_bw GB/s | verbs / UCX | verbs / ib_read_bw |")
print("| --- | --- | --- | --- | --- | --- |")
for c in cfgs:
    v, u, p = med((c, "gshmem-verbs")), med((c, "gshmem-ucx-rc")), med((c, "ib_read_bw"))
    print("| %s | %s | %s | %s | %s | %s |" % (c, f(v), f(u), f(p), r(v, u), r(v, p)))
cv, cu = med(("connect", "gshmem-verbs")), med(("connect", "gshmem-ucx-rc"))
print("connect (median ms): gshmem-verbs %s, gshmem-ucx-rc %s" % (
    "-" if cv is None else "%.1f" % (cv / 1000), "-" if cu is None else "%.1f" % (cu / 1000)))
PY
