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

    -m notify              kv_xjob.c's notify: the pull side writes the k
                           blocks with a notification (initialize_xfer's
                           notif_msg) that carries the post's time
                           (CLOCK_MONOTONIC), waits for DONE, pauses 2 ms;
                           the serve side polls get_new_notifs and prints
                           kv_notify_lat, the median of (time it got the
                           notification - the post's time)

Options as kv_xjob.c's: -b -k -l -N -n -w -m.  Prints the same JSON lines
with impl "nixl".  Needs NIXL's Python package (pip install nixl-cu12 --no-deps,
numpy); imports nixl or nixl_cu12.
"""
import os
import struct
import sys
import time

from kv_side import (REGIONS, await_file, check, ids_of, parse_args, pattern, report,
                     results)

try:
    from nixl._api import nixl_agent, nixl_agent_config
except ImportError:
    from nixl_cu12._api import nixl_agent, nixl_agent_config









def _config():
    """The UCX backend, NIXL's defaults (its progress thread on, as vLLM's
    NixlConnector leaves it); NIXL_PROG_THREAD=0 turns the thread off."""
    return nixl_agent_config(enable_prog_thread=os.environ.get("NIXL_PROG_THREAD", "1") != "0",
                             backends=["UCX"])


def make_cache(agent, a, side):
    bufs = [pattern(side, r, a.N, a.b) for r in range(a.l * REGIONS)]
    agent.register_memory([(buf.ctypes.data, buf.nbytes, 0, "") for buf in bufs], "DRAM")
    return bufs




def watch_notifs(agent, a):
    """notify, the serving side: how long after its post each notification
    arrived (both sides on one host, one clock)."""
    us, deadline = [], time.monotonic() + 120
    while len(us) < a.w + a.n:
        for msgs in agent.get_new_notifs().values():
            now = time.perf_counter_ns()  # CLOCK_MONOTONIC, as bench_now_ns
            for m in msgs:
                us.append((now - struct.unpack("<q", m[:8])[0]) / 1e3)
        if time.monotonic() > deadline:
            sys.exit("kv_nixl: %d notifications of %d in 120 s" % (len(us), a.w + a.n))
    us = sorted(us[a.w:])
    report("nixl", "kv_notify_lat", a.k * a.l * REGIONS * a.b, a.n, "lat_us", us[len(us) // 2])


def serve(a):
    agent = nixl_agent("kv-serve", _config())
    bufs = make_cache(agent, a, 0)
    meta = agent.get_agent_metadata()
    with open(os.path.join(a.dir, "nixl.tmp"), "wb") as f:
        f.write(struct.pack("<I", len(bufs)))
        for buf in bufs:
            f.write(struct.pack("<Q", buf.ctypes.data))
        f.write(meta)
    os.rename(os.path.join(a.dir, "nixl.tmp"), os.path.join(a.dir, "nixl"))
    if a.m == "notify":
        watch_notifs(agent, a)
    await_file(os.path.join(a.dir, "done"), "kv_nixl")
    # NIXL 1.5.1's agent dies of SIGSEGV in its teardown at exit once its
    # peer has gone (every run here): leave without it.
    sys.stdout.flush()
    os._exit(0)


def pull(a):
    agent = nixl_agent("kv-pull", _config())
    bufs = make_cache(agent, a, 1)
    await_file(os.path.join(a.dir, "nixl"), "kv_nixl")
    with open(os.path.join(a.dir, "nixl"), "rb") as f:
        blob = f.read()
    n = struct.unpack_from("<I", blob)[0]
    remote = list(struct.unpack_from("<%dQ" % n, blob, 4))
    meta = blob[4 + 8 * n:]
    t0 = time.perf_counter_ns()
    name = agent.add_remote_agent(meta)
    agent.make_connection(name)
    report("nixl", "kv_connect", 0, 1, "lat_us", (time.perf_counter_ns() - t0) / 1e3)
    ids = ids_of(a.k)
    op = "WRITE" if a.m in ("write", "notify") else "READ"
    us = []
    for it in range(-a.w, a.n):
        t0 = time.perf_counter_ns()
        local = [(bufs[r].ctypes.data + b * a.b, a.b, 0) for r in range(a.l * REGIONS) for b in ids]
        far = [(remote[r] + b * a.b, a.b, 0) for r in range(a.l * REGIONS) for b in ids]
        notif = struct.pack("<q", t0) if a.m == "notify" else b""
        h = agent.initialize_xfer(op, agent.get_xfer_descs(local, "DRAM"),
                                  agent.get_xfer_descs(far, "DRAM"), name, notif)
        state = agent.transfer(h)
        while state == "PROC":
            state = agent.check_xfer_state(h)
        if state != "DONE":
            sys.exit("kv_nixl: the transfer ended %s" % state)
        agent.release_xfer_handle(h)
        if it >= 0:
            us.append((time.perf_counter_ns() - t0) / 1e3)
        if a.m == "notify":
            # The pause progresses the agent (NIXL's UCX backend sends a
            # notification from the initiator's progress, after a flush):
            # as a serving stack that polls for its next step would.
            t_end = time.perf_counter_ns() + 2000000
            while time.perf_counter_ns() < t_end:
                agent.get_new_notifs()
    if a.m == "notify":
        pass  # the serve side reports
    elif a.m != "write":
        check(a, bufs, ids, "kv_nixl")
    if a.m != "notify":
        results("nixl", a, us)
    open(os.path.join(a.dir, "done"), "w").close()
    sys.stdout.flush()
    os._exit(0)  # as serve: NIXL's teardown at exit crashes


if __name__ == "__main__":
    a = parse_args()
    (serve if a.role == "serve" else pull)(a)
