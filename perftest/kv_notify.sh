#!/bin/sh
# perftest/kv_notify.sh - how soon the other side learns that a write has
# landed: gshmem_kv's signal (set behind the data, on the data's path)
# against NIXL's notification (initialize_xfer's notif_msg, which NIXL's
# UCX backend sends after a flush, from the initiator's progress).  Two
# processes on one host; the writer stamps each post with CLOCK_MONOTONIC,
# the receiver notes when it sees the signal or the notification
# (kv_xjob -m notify, kv_nixl.py -m notify say how).  Columns:
#   gshmem-direct   kv_xjob, same-host direct copy, the signal word mapped
#   gshmem-ucx      kv_xjob with GSHMEM_KV_DIRECT=0 (UCX over tcp here)
#   nixl            kv_nixl.py, NIXL's UCX backend (UCX's own transports),
#                   the agents without NIXL's progress thread
#                   (NIXL_PROG_THREAD=0): the receiver's get_new_notifs
#                   loop progresses it, NIXL's best case here
#   nixl-tcp        the same with UCX_TLS=tcp,self
#   nixl-thread     NIXL's default config (its progress thread on, as
#                   vLLM's NixlConnector makes its agent), shared memory
# Medians of REPS runs (default 3) of each run's median; nothing else may
# run meanwhile.  NIXL: PYTHON (default /tmp/nixlenv/bin/python) with
# nixl-cu12 (pip install --no-deps nixl-cu12 numpy); without it its
# columns say so.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/.." && pwd)}
src=${GSHMEM_TOP_SRCDIR:-$build}
# shellcheck source=perftest/kv_pairs.sh
. "$src/perftest/kv_pairs.sh"
# name: block bytes, blocks per write, layers
configs=${CONFIGS:-"1x4k:4096:1:1 16x64k:65536:16:1 llama8b:32768:126:32"}
one() { # IMPL ARGS... : one pair; the receiving side's line to $out
    impl=$1
    shift
    d=$(mktemp -d)
    case $impl in
    nixl*)
        [ "$impl" = nixl-tcp ] && UCX_TLS=tcp,self && export UCX_TLS
        NIXL_PROG_THREAD=0
        [ "$impl" = nixl-thread ] && NIXL_PROG_THREAD=1
        export NIXL_PROG_THREAD
        BENCH_IMPL=$impl timeout 300 "$py" "$src/perftest/kv_nixl.py" "$@" serve "$d" 2>/dev/null |
            grep '^{.*kv_notify' | sed "s/^/$cfg /" >>"$out" &
        s=$!
        timeout 300 "$py" "$src/perftest/kv_nixl.py" "$@" pull "$d" >/dev/null 2>&1
        unset UCX_TLS
        ;;
    *)
        [ "$impl" = gshmem-ucx ] && GSHMEM_KV_DIRECT=0 UCX_TLS=tcp,self &&
            export GSHMEM_KV_DIRECT UCX_TLS
        BENCH_IMPL=$impl timeout 300 "$build/tools/gshmemrun" -np 1 "$build/perftest/kv_xjob" \
            "$@" serve "$d" 2>/dev/null | grep '^{.*kv_notify' | sed "s/^/$cfg /" >>"$out" &
        s=$!
        timeout 300 "$build/tools/gshmemrun" -np 1 "$build/perftest/kv_xjob" "$@" pull "$d" \
            >/dev/null 2>&1
        unset GSHMEM_KV_DIRECT UCX_TLS
        ;;
    esac
    wait $s
    rm -rf "$d"
}
pair() { # IMPL BLOCK BLOCKS LAYERS
    one "$1" -m notify -b "$2" -k "$3" -l "$4" -n 30 -w 3
}
impls="gshmem-direct gshmem-ucx"
[ $have_nixl = 1 ] && impls="$impls nixl nixl-tcp nixl-thread"
kv_rounds "$reps" "$configs" "$impls" pair
python3 - "$out" "$have_nixl" <<'PY'
import json, statistics, sys
rows, cfgs = {}, []
for line in open(sys.argv[1]):
    cfg, js = line.split(" ", 1)
    d = json.loads(js)
    rows.setdefault((cfg, d["impl"]), []).append(d["lat_us"])
    if cfg not in cfgs:
        cfgs.append(cfg)
impls = ("gshmem-direct", "gshmem-ucx", "nixl", "nixl-tcp", "nixl-thread")
med = lambda c, i: statistics.median(rows[(c, i)]) if (c, i) in rows else None
cell = lambda v, i: ("%.1f" % v) if v else ("not installed" if i.startswith("nixl") and
                                            sys.argv[2] != "1" else "n/a")
ratio = lambda a, b: ("%.3fx" % (a / b)) if a and b else "n/a"
print("| write | gshmem direct us | gshmem UCX tcp us | NIXL us | NIXL tcp us "
      "| NIXL default (progress thread) us | direct / NIXL | UCX / NIXL tcp |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for c in cfgs:
    v = {i: med(c, i) for i in impls}
    print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        c, cell(v["gshmem-direct"], "g"), cell(v["gshmem-ucx"], "g"), cell(v["nixl"], "nixl"),
        cell(v["nixl-tcp"], "nixl"), cell(v["nixl-thread"], "nixl"),
        ratio(v["gshmem-direct"], v["nixl"]),
        ratio(v["gshmem-ucx"], v["nixl-tcp"])))
PY
[ -n "${KEEP:-}" ] && echo "kv_notify.sh: kept $out" >&2 || rm -f "$out"
