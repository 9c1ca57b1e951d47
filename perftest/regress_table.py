#!/usr/bin/env python3
"""regress_table.py RESULTS.jsonl [BASE-NAME] - the table of perftest/regress.sh.

One row per headline figure: the median over reps on each side, current /
BASE, and "WORSE" where the current build is more than 10% worse (a time
longer, or a rate lower).  Exit status 0 always once the file could be read:
the table informs, a person decides.
"""
import json
import statistics
import sys
from collections import defaultdict

# figure -> rows: (row label, bench name, bytes or None, metric, higher is better)
ROWS = {
    "init": [("shmem_init, 2 PEs (ms)", "init_time", None, "lat_ns", False)],
    "p_pingpong": [("p ping-pong 8 B, 2 PEs (ns)", "p_pingpong", None, "lat_ns", False)],
    "p_ucx": [("p ping-pong over UCX (ns)", "p_pingpong", None, "lat_ns", False)],
    "put_bw": [("putmem 8 KiB (GB/s)", "put_bw", 8192, "MBps", True),
               ("putmem 1 MiB (GB/s)", "put_bw", 1 << 20, "MBps", True)],
    "put_ucx": [("putmem 8 KiB over UCX (GB/s)", "put_bw", 8192, "MBps", True),
                ("putmem 1 MiB over UCX (GB/s)", "put_bw", 1 << 20, "MBps", True)],
    "barrier": [("barrier_all, 4 PEs (ns)", "barrier_all_lat", None, "lat_ns", False)],
    "moe_ll": [("MoE LL dispatch+combine, 4 PEs (us)", "moe_total", None, "median_us", False),
               ("MoE LL combine (us)", "moe_combine", None, "median_us", False)],
    "moe_normal": [("MoE normal dispatch+combine (us)", "moe_total", None, "median_us", False),
                   ("MoE normal combine (us)", "moe_combine", None, "median_us", False)],
    "proxy_rate": [("proxy 8 B put rate, posix, 1 thr (M/s)", "dev_msg_rate", None, "Mmsgps",
                    True)],
    "kv_read": [("KV pull 256 x 32 KiB, 2 PEs (GB/s)", "kv_read", None, "gbps", True)],
    "kv_tier": [("KV tier random read 64 KiB (GB/s)", "kv_fio_randread", None, "MBps", True),
                ("KV tier random write 64 KiB (GB/s)", "kv_fio_randwrite", None, "MBps", True)],
}
# How a metric is shown: a scale and the unit already in the label.
SCALE = {"lat_ns": 1.0, "MBps": 1e-3, "median_us": 1.0, "Mmsgps": 1.0, "gbps": 1.0}


def main():
    path = sys.argv[1]
    base_name = sys.argv[2] if len(sys.argv) > 2 else "BASE"
    vals = defaultdict(list)
    figures = []
    for line in open(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        fig = r.get("figure")
        if fig not in ROWS:
            continue
        if fig not in figures:
            figures.append(fig)
        for label, bench, size, metric, _ in ROWS[fig]:
            if r.get("bench") != bench or metric not in r:
                continue
            if size is not None and r.get("bytes") != size:
                continue
            v = float(r[metric])
            if fig == "init":
                v /= 1e6  # ns -> ms
            vals[(label, r["side"])].append(v)
    print(f"\n{'figure':<42}{base_name[:12]:>12}{'current':>12}{'cur/base':>10}")
    worse = 0
    for fig in figures:
        for label, _, _, metric, higher in ROWS[fig]:
            b, c = vals.get((label, "base")), vals.get((label, "cur"))
            if not b and not c:
                continue
            scale = 1.0 if fig == "init" else SCALE[metric]
            mb = statistics.median(b) * scale if b else None
            mc = statistics.median(c) * scale if c else None
            fmt = lambda v: "-" if v is None else f"{v:.4g}"
            ratio, mark = "-", ""
            if mb and mc:
                ratio = f"{mc / mb:.2f}x"
                bad = mc < 0.9 * mb if higher else mc > 1.1 * mb
                if bad:
                    mark, worse = "  WORSE", worse + 1
            print(f"{label:<42}{fmt(mb):>12}{fmt(mc):>12}{ratio:>10}{mark}")
    n = max((len(v) for v in vals.values()), default=0)
    print(f"(medians of up to {n} reps; cur/base above 1 is slower for times, faster for rates;"
          f" WORSE: more than 10% worse; {worse} such)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
