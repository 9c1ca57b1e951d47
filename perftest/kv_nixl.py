#!/usr/bin/env python3
"""perftest/kv_nixl.py - kv_xjob.c's request through NIXL, as a serving stack
drives it (vLLM's NixlConnector: one descriptor per block, layer and K/V,
DRAM, the UCX backend), so that perftest/kv_compare.sh can set the two side
by side on the same shape.

    kv_nixl.py serve DIR   registers L layers x K,V x N blocks of B bytes
                           (one numpy buffer per region, pattern-filled),
                           writes its agent metadata and region addresses
                           to DIR/nixl, waits for DIR/done
    kv_nixl.py pull DIR    adds the remote agent (timed, as the connect),
                           then times requests of k scattered blocks (the
                           same shuffle as kv_xjob.c) of every layer: build
                           the descriptor lists, initialize_xfer, transfer,
                           poll check_xfer_state until DONE, release; checks
                           every byte of the last one; writes DIR/done

Options as kv_xjob.c's: -b -k -l -N -n -w -m.  Prints the same JSON lines
with impl "nixl".  Needs NIXL's Python package (pip install nixl-cu12 --no-deps,
numpy); imports nixl or nixl_cu12.
"""
import argparse
import json
import os
import random
import struct
import sys
import time

import numpy as np

try:
    from nixl._api import nixl_agent, nixl_agent_config
except ImportError:
    from nixl_cu12._api import nixl_agent, nixl_agent_config

REGIONS = 2


def report(bench, nbytes, iters, metric, value):
    print(json.dumps({"bench": bench, "impl": os.environ.get("BENCH_IMPL", "nixl"), "npes": 2,
                      "bytes": int(nbytes), "iters": iters, metric: value}), flush=True)


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
    sys.exit("kv_nixl: %s did not appear in 120 s" % path)


def make_cache(agent, a, side):
    bufs = [pattern(side, r, a.N, a.b) for r in range(a.l * REGIONS)]
    agent.register_memory([(buf.ctypes.data, buf.nbytes, 0, "") for buf in bufs], "DRAM")
    return bufs


def ids_of(k):
    """kv_xjob.c's shuffle of every other block (srand(7) differs; any fixed
    order of non-adjacent blocks is the same work)."""
    ids = [2 * i for i in range(k)]
    random.Random(7).shuffle(ids)
    return ids


def serve(a):
    agent = nixl_agent("kv-serve", nixl_agent_config(backends=["UCX"]))
    bufs = make_cache(agent, a, 0)
    meta = agent.get_agent_metadata()
    with open(os.path.join(a.dir, "nixl.tmp"), "wb") as f:
        f.write(struct.pack("<I", len(bufs)))
        for buf in bufs:
            f.write(struct.pack("<Q", buf.ctypes.data))
        f.write(meta)
    os.rename(os.path.join(a.dir, "nixl.tmp"), os.path.join(a.dir, "nixl"))
    await_file(os.path.join(a.dir, "done"))
    # NIXL 1.5.1's agent dies of SIGSEGV in its teardown at exit once its
    # peer has gone (every run here): leave without it.
    sys.stdout.flush()
    os._exit(0)


def pull(a):
    agent = nixl_agent("kv-pull", nixl_agent_config(backends=["UCX"]))
    bufs = make_cache(agent, a, 1)
    await_file(os.path.join(a.dir, "nixl"))
    with open(os.path.join(a.dir, "nixl"), "rb") as f:
        blob = f.read()
    n = struct.unpack_from("<I", blob)[0]
    remote = list(struct.unpack_from("<%dQ" % n, blob, 4))
    meta = blob[4 + 8 * n:]
    t0 = time.perf_counter_ns()
    name = agent.add_remote_agent(meta)
    agent.make_connection(name)
    report("kv_connect", 0, 1, "lat_us", (time.perf_counter_ns() - t0) / 1e3)
    ids = ids_of(a.k)
    op = "WRITE" if a.m == "write" else "READ"
    us = []
    for it in range(-a.w, a.n):
        t0 = time.perf_counter_ns()
        local = [(bufs[r].ctypes.data + b * a.b, a.b, 0) for r in range(a.l * REGIONS) for b in ids]
        far = [(remote[r] + b * a.b, a.b, 0) for r in range(a.l * REGIONS) for b in ids]
        h = agent.initialize_xfer(op, agent.get_xfer_descs(local, "DRAM"),
                                  agent.get_xfer_descs(far, "DRAM"), name)
        state = agent.transfer(h)
        while state == "PROC":
            state = agent.check_xfer_state(h)
        if state != "DONE":
            sys.exit("kv_nixl: the transfer ended %s" % state)
        agent.release_xfer_handle(h)
        if it >= 0:
            us.append((time.perf_counter_ns() - t0) / 1e3)
    if a.m != "write":
        for r in range(a.l * REGIONS):
            want = pattern(0, r, a.N, a.b)
            if not np.array_equal(bufs[r][ids], want[ids]):
                sys.exit("kv_nixl: region %d holds the wrong bytes" % r)
    us.sort()
    med = us[len(us) // 2]
    nbytes = a.k * a.l * REGIONS * a.b
    bench = "kv_xjob_write" if a.m == "write" else "kv_xjob_read"
    report(bench, nbytes, a.n, "gbps", nbytes / med / 1e3)
    report(bench + "_lat", nbytes, a.n, "lat_us", med)
    report(bench + "_ops", nbytes, a.n, "ops", a.k * a.l * REGIONS)
    open(os.path.join(a.dir, "done"), "w").close()
    sys.stdout.flush()
    os._exit(0)  # as serve: NIXL's teardown at exit crashes


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
