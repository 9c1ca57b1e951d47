"""perftest/kv_side.py - what kv_nixl.py and kv_mooncake.py share: kv_xjob.c's
shape, pattern, block shuffle and JSON lines, the options, and the wait for
the other side's file (each script runs as the serve or the pull side)."""
import argparse
import json
import os
import random
import sys
import time

import numpy as np

REGIONS = 2  # K and V


def report(impl, bench, nbytes, iters, metric, value):
    print(json.dumps({"bench": bench, "impl": os.environ.get("BENCH_IMPL", impl), "npes": 2,
                      "bytes": int(nbytes), "iters": iters, metric: value}), flush=True)


def pattern(side, region, n_blocks, block):
    """kv_xjob.c's pattern: (side*131 + region*17 + b*7 + (i >> 3) + i) & 0xff."""
    b = np.arange(n_blocks, dtype=np.int64)[:, None]
    i = np.arange(block, dtype=np.int64)[None, :]
    return ((side * 131 + region * 17 + b * 7 + (i >> 3) + i) & 0xff).astype(np.uint8)


def await_file(path, who):
    for _ in range(120 * 200):
        if os.path.exists(path):
            return
        time.sleep(0.005)
    sys.exit("%s: %s did not appear in 120 s" % (who, path))


def ids_of(k):
    """kv_xjob.c's shuffle of every other block (srand(7) differs; any fixed
    order of non-adjacent blocks is the same work)."""
    ids = [2 * i for i in range(k)]
    random.Random(7).shuffle(ids)
    return ids


def check(a, bufs, ids, who):
    """The pulled blocks hold the serving side's pattern."""
    for r in range(a.l * REGIONS):
        want = pattern(0, r, a.N, a.b)
        if not np.array_equal(bufs[r][ids], want[ids]):
            sys.exit("%s: region %d holds the wrong bytes" % (who, r))


def results(impl, a, us):
    """The median request of us (microseconds) as kv_xjob.c's three lines."""
    us.sort()
    med = us[len(us) // 2]
    nbytes = a.k * a.l * REGIONS * a.b
    bench = "kv_xjob_write" if a.m == "write" else "kv_xjob_read"
    report(impl, bench, nbytes, a.n, "gbps", nbytes / med / 1e3)
    report(impl, bench + "_lat", nbytes, a.n, "lat_us", med)
    report(impl, bench + "_ops", nbytes, a.n, "ops", a.k * a.l * REGIONS)


def parse_args():
    """kv_xjob.c's options: -b block bytes, -k blocks per request, -l layers,
    -N blocks per region (2k+1), -n timed and -w warm-up requests, -m read|write."""
    p = argparse.ArgumentParser()
    p.add_argument("-b", type=int, default=32768)
    p.add_argument("-k", type=int, default=128)
    p.add_argument("-l", type=int, default=1)
    p.add_argument("-N", type=int, default=0)
    p.add_argument("-n", type=int, default=50)
    p.add_argument("-w", type=int, default=5)
    p.add_argument("-m", default="read")
    p.add_argument("role", choices=["serve", "pull"])
    p.add_argument("dir")
    a = p.parse_args()
    a.N = a.N or 2 * a.k + 1
    return a
