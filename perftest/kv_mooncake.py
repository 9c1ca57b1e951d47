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
import os
import struct
import sys
import time

from kv_side import (REGIONS, await_file, check, ids_of, parse_args, pattern, report,
                     results)
from mooncake.engine import TransferEngine









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
    await_file(os.path.join(a.dir, "done"), "kv_mooncake")
    sys.stdout.flush()
    os._exit(0)


def pull(a):
    e = engine()
    bufs = make_cache(e, a, 1)
    await_file(os.path.join(a.dir, "mooncake"), "kv_mooncake")
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
    report("mooncake", "kv_connect", 0, 1, "lat_us", (time.perf_counter_ns() - t0) / 1e3)
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
        check(a, bufs, ids, "kv_mooncake")
    results("mooncake", a, us)
    open(os.path.join(a.dir, "done"), "w").close()
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    a = parse_args()
    (serve if a.role == "serve" else pull)(a)
