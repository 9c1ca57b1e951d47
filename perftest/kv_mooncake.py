#!/usr/bin/env python3
"""perftest/kv_mooncake.py - kv_xjob.c's request through Mooncake's Transfer
Engine (pip install mooncake-transfer-engine-non-cuda), as its vLLM and
SGLang connectors drive it: the tcp protocol, the P2PHANDSHAKE metadata
mode (no metadata server), one (local, remote, length) entry per block,
layer and K/V in one batch_transfer_sync_read/write, so that
perftest/kv_compare.sh can set it beside gshmem_kv and NIXL.

    kv_mooncake.py serve DIR   registers L layers x K,V x N blocks of B bytes
                               (one numpy buffer per region, kv_xjob.c's
                               pattern), writes its session id and region
                               addresses to DIR/mooncake, waits for DIR/done
    kv_mooncake.py pull DIR    opens the session (timed, as the connect: the
                               first transfer's handshake), then times
                               requests of k scattered blocks of every
                               layer; checks every byte of the last one;
                               writes DIR/done

Options as kv_nixl.py's.  Prints the same JSON lines with impl "mooncake".
"""
import argparse
import json
import os
import random
import struct
import sys
import time

import numpy as np
from mooncake.engine import TransferEngine

REGIONS = 2


def report(bench, nbytes, iters, metric, value):
    print(json.dumps({"bench": bench, "impl": os.environ.get("BENCH_IMPL", "mooncake"),
                      "npes": 2, "bytes": int(nbytes), "iters": iters, metric: value}),
          flush=True)


def pattern(side, region, n_blocks, block):
    """kv_xjob.c's pattern: (side*131 + region*17 + b*7 + (i >> 3) + i) & 0xff."""
    b = np.arange(n_blocks, dtype=np.int64)[:, None]
    i = np.arange(block, dtype=np.int64)[None, :]
    return ((side * 131 + region * 17 + b * 7 + (i >> 3) + i) & 0xff).astype(np.uint8)


def await_file(path):
    for _ in range(120 * 200):
        if os.path.exists(path):
            return
        time.sleep(0.005)
    sys.exit("kv_mooncake: %s did not appear in 120 s" % path)


def engine():
    e = TransferEngine()
    rc = e.initialize("127.0.0.1", "P2PHANDSHAKE", "tcp", "")
    if rc != 0:
        sys.exit("kv_mooncake: initialize returned %d" % rc)
    return e


def make_cache(e, a, side):
    bufs = [pattern(side, r, a.N, a.b) for r in range(a.l * REGIONS)]
    for buf in bufs:
        if e.register_memory(buf.ctypes.data, buf.nbytes) != 0:
            sys.exit("kv_mooncake: register_memory failed")
    return bufs


def ids_of(k):
    ids = [2 * i for i in range(k)]
    random.Random(7).shuffle(ids)
    return ids


def serve(a):
    e = engine()
    bufs = make_cache(e, a, 0)
    session = "127.0.0.1:%d" % e.get_rpc_port()
    with open(os.path.join(a.dir, "mooncake.tmp"), "wb") as f:
        f.write(struct.pack("<I", len(bufs)))
        for buf in bufs:
            f.write(struct.pack("<Q", buf.ctypes.data))
        f.write(session.encode())
    os.rename(os.path.join(a.dir, "mooncake.tmp"), os.path.join(a.dir, "mooncake"))
    await_file(os.path.join(a.dir, "done"))
    sys.stdout.flush()
    os._exit(0)


def pull(a):
    e = engine()
    bufs = make_cache(e, a, 1)
    await_file(os.path.join(a.dir, "mooncake"))
    with open(os.path.join(a.dir, "mooncake"), "rb") as f:
        blob = f.read()
    n = struct.unpack_from("<I", blob)[0]
    remote = list(struct.unpack_from("<%dQ" % n, blob, 4))
    session = blob[4 + 8 * n:].decode()
    ids = ids_of(a.k)
    xfer = e.batch_transfer_sync_write if a.m == "write" else e.batch_transfer_sync_read
    # The connection is made on the first transfer (the handshake): one
    # block's read, timed as the connect.
    t0 = time.perf_counter_ns()
    if e.transfer_sync_read(session, bufs[0].ctypes.data, remote[0], a.b) != 0:
        sys.exit("kv_mooncake: the first transfer failed")
    report("kv_connect", 0, 1, "lat_us", (time.perf_counter_ns() - t0) / 1e3)
    us = []
    for it in range(-a.w, a.n):
        t0 = time.perf_counter_ns()
        local = [bufs[r].ctypes.data + b * a.b for r in range(a.l * REGIONS) for b in ids]
        far = [remote[r] + b * a.b for r in range(a.l * REGIONS) for b in ids]
        if xfer(session, local, far, [a.b] * len(local)) != 0:
            sys.exit("kv_mooncake: the transfer failed")
        if it >= 0:
            us.append((time.perf_counter_ns() - t0) / 1e3)
    if a.m != "write":
        for r in range(a.l * REGIONS):
            want = pattern(0, r, a.N, a.b)
            if not np.array_equal(bufs[r][ids], want[ids]):
                sys.exit("kv_mooncake: region %d holds the wrong bytes" % r)
    us.sort()
    med = us[len(us) // 2]
    nbytes = a.k * a.l * REGIONS * a.b
    bench = "kv_xjob_write" if a.m == "write" else "kv_xjob_read"
    report(bench, nbytes, a.n, "gbps", nbytes / med / 1e3)
    report(bench + "_lat", nbytes, a.n, "lat_us", med)
    report(bench + "_ops", nbytes, a.n, "ops", a.k * a.l * REGIONS)
    open(os.path.join(a.dir, "done"), "w").close()
    sys.stdout.flush()
    os._exit(0)


def main():
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
    (serve if a.role == "serve" else pull)(a)


if __name__ == "__main__":
    main()
