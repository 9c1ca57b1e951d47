"""MoE dispatch + combine from Python: gshmem.moe.Buffer against what a user
would write otherwise, torch.distributed all_to_all_single on gloo, in the
same run on the same data, checked against each other bit for bit.

    python3 perftest/moe_py_bench.py [--np 4] [--iters 20] [--warmup 3]
        [--tokens 128 --hidden 2048 --topk 8 --experts-per-pe 8] [--bf16] [--normal]
        [--gshmem-only]

The default shape is moe_bench's "cpu" preset (perftest/moe_bench.c): 128
tokens per PE, H=2048, top-8, 8 experts per PE, fp8 dispatch.  The
processes start with torch.multiprocessing, form a gloo group, and start
gshmem from it (gshmem.init(group=...)).  Each round: a barrier, dispatch
(timed), a barrier, the toy expert (untimed), a barrier, combine (timed),
as perftest/moe_bench's rounds (libs/moe/moe_run.c), for both
implementations, alternating which goes first (gshmem's rounds use
gshmem's barrier, as moe_bench does; the gloo rounds gloo's; processes are
bound to cores as gshmemrun binds moe_bench's PEs, see bind()).  A round's
time is the slowest process's.  --gshmem-only times gshmem's rounds back
to back, as moe_bench runs its rounds (a gloo round between them runs
other code and sleeps in TCP waits, which the C rounds never do), and
checks the last output against one untimed gloo round after them.  Prints
one JSON line per implementation and phase, as moe_bench does ("impl":
"gshmem-python" or "gloo", "rounds": "alternating" or "gshmem-only"),
with the median.  perftest/moe_py_compare.sh adds the C benchmark and the
ratios.  gshmem's rounds run moe_bench's own C toy expert (--expert c, the
default: perftest/moe_toy_py.c through ctypes), so that python / C is the
cost of the Python calls; --expert torch runs ref.expert as the gloo
rounds do ("expert" in the JSON lines says which).  Combine writes into
one output tensor (out=, as DeepEP's), as moe_bench writes into one
buffer."""
import argparse
import ctypes
import json
import os
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))  # ref.py: quantize, combine

import gshmem  # noqa: E402  (first: it makes Debian's torch importable)
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

import ref  # noqa: E402


def now_us():
    return time.perf_counter() * 1e6


def slowest(us):
    """Each round's slowest process, from every process's list of rounds:
    one reduction after the rounds, as moe_run.c does (one per round made
    every process sleep in a TCP wait between rounds, which the C rounds
    never do, and the next round ran slower from it)."""
    t = torch.tensor(us, dtype=torch.float64)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return t.tolist()


class Gloo:
    """dispatch/combine with two all_to_all_single each (counts, then rows)."""

    def __init__(self, n, L, H, fp8):
        self.n, self.L, self.H, self.fp8 = n, L, H, fp8

    def dispatch(self, x, idx):
        n, L, H = self.n, self.L, self.H
        tok, kk = (idx >= 0).nonzero(as_tuple=True)
        dest = idx[tok, kk] // L
        order = torch.argsort(dest * (idx.shape[0] * idx.shape[1]) + tok * idx.shape[1] + kk)
        tok, kk, dest = tok[order], kk[order], dest[order]
        if self.fp8:
            q, s = ref.quantize(x)
            payload = torch.cat([q, s.view(torch.uint8).reshape(x.shape[0], -1)], dim=1)
        else:
            payload = x.view(torch.uint8).reshape(x.shape[0], -1)
        rowb = payload.shape[1] + 8  # + (expert, token) as two int32
        send = torch.empty((len(tok), rowb), dtype=torch.uint8)
        send[:, :payload.shape[1]] = payload[tok]
        meta = torch.stack([idx[tok, kk].to(torch.int32), tok.to(torch.int32)], dim=1)
        send[:, payload.shape[1]:] = meta.view(torch.uint8).reshape(len(tok), 8)
        counts = torch.bincount(dest, minlength=n).to(torch.int64)
        rcounts = torch.empty(n, dtype=torch.int64)
        dist.all_to_all_single(rcounts, counts)
        recv = torch.empty((int(rcounts.sum()), rowb), dtype=torch.uint8)
        dist.all_to_all_single(recv, send, rcounts.tolist(), counts.tolist())
        return recv, (tok, kk, counts, rcounts, payload.shape[1])

    def expert(self, recv, state):
        pb = state[4]
        meta = recv[:, pb:].contiguous().view(torch.int32)
        if self.fp8:
            q = recv[:, :self.H]
            s = recv[:, self.H:pb].contiguous().view(torch.float32)
        else:
            q, s = recv[:, :pb].contiguous().view(torch.bfloat16), None
        y = torch.empty((recv.shape[0], self.H), dtype=torch.bfloat16)
        for e in meta[:, 0].unique().tolist():
            rows = (meta[:, 0] == e).nonzero(as_tuple=True)[0]
            y[rows] = ref.expert(q[rows], s[rows] if s is not None else None, e)
        return y

    def combine(self, y, state, idx, w):
        tok, kk, counts, rcounts, _ = state
        back = torch.empty((int(counts.sum()), self.H), dtype=torch.bfloat16)
        dist.all_to_all_single(back.view(torch.uint8), y.view(torch.uint8), counts.tolist(),
                               rcounts.tolist())
        rows = [torch.zeros((idx.shape[0], self.H), dtype=torch.bfloat16) for _ in
                range(idx.shape[1])]
        for k in range(idx.shape[1]):
            sel = (kk == k).nonzero(as_tuple=True)[0]
            rows[k][tok[sel]] = back[sel]
        return ref.combine(rows, idx, w)


def c_expert(lib, buf, recv_x, count, y, fp8):
    """moe_bench's toy expert (perftest/moe_toy_py.c) into y, in place."""
    vals, scales = (recv_x[0], recv_x[1]) if fp8 else (recv_x, None)
    lib.moe_toy_experts_flat(buf.hidden, int(fp8), buf.num_local_experts, buf.num_recv_rows,
                             ctypes.c_void_p(count.data_ptr()), ctypes.c_void_p(vals.data_ptr()),
                             ctypes.c_void_p(scales.data_ptr() if fp8 else None),
                             ctypes.c_void_p(y.data_ptr()))
    return y


def gshmem_round(buf, x, idx, w, me, fp8, toy, y, out):
    """toy: the C expert's library (y: its output, reused), or None: torch's.
    out: combine's output, reused (DeepEP's out=), as moe_bench reuses its
    own: with a new one each round two live outputs alternate in the cache,
    which the C rounds do not pay."""
    # The barriers before each timed phase are gshmem's, as in moe_bench,
    # so each phase starts as the C one does: the call is collective, and
    # whatever keeps the PEs from leaving the barrier together (a gloo
    # barrier goes over TCP and wakes each process from a socket wait) is
    # time the first PE spends waiting inside the timed call.
    gshmem.barrier_all()
    t0 = now_us()
    recv_x, count, handle = buf.dispatch(x, idx, w)
    t1 = now_us()
    # As moe_run.c: the expert starts from a barrier too.  Without it a PE
    # done with its dispatch ran its expert beside a PE still in dispatch
    # on the same core, and that PE's timed dispatch took twice as long
    # (6 ms against 2.5 at 4 PEs on 2 cores): the C benchmark's PEs wait
    # there, yielding the core.
    gshmem.barrier_all()
    if toy is not None:
        y = c_expert(toy, buf, recv_x, count, y, fp8)
    else:
        y = ref.run_experts(me, recv_x, count, buf.num_local_experts, fp8)
    gshmem.barrier_all()
    t2 = now_us()
    out = buf.combine(y, handle, out=out)
    t3 = now_us()
    return out, t1 - t0, t3 - t2


def gloo_round(g, x, idx, w):
    dist.barrier()
    t0 = now_us()
    recv, st = g.dispatch(x, idx)
    t1 = now_us()
    dist.barrier()  # as gshmem_round
    y = g.expert(recv, st)
    dist.barrier()
    t2 = now_us()
    out = g.combine(y, st, idx, w)
    t3 = now_us()
    return out, t1 - t0, t3 - t2


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def bind(rank, np):
    """As gshmemrun places the C benchmark's PEs: when they outnumber the
    cores it asks mpirun for --bind-to core --map-by core, and at 2 PEs or
    fewer mpirun binds each to a core by default: PE i on core i mod cores.
    (Unbound, the 2-PE run's threads moved between both cores, where the C
    PEs each keep one.)"""
    cores = sorted(os.sched_getaffinity(0))
    if np > len(cores) or np <= 2:
        os.sched_setaffinity(0, {cores[rank % len(cores)]})


def worker(rank, a, port):
    bind(rank, a.np)
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank,
                            world_size=a.np)
    gshmem.init(group=dist.group.WORLD)
    me, n = gshmem.my_pe(), gshmem.n_pes()
    L, H, N, K, fp8 = a.experts_per_pe, a.hidden, a.tokens, a.topk, not a.bf16
    E = L * n
    x, idx, w = ref.inputs(me, 1, N, H, E, K, "random")
    buf = gshmem.moe.Buffer(H, E, K, N, low_latency_mode=not a.normal, use_fp8=fp8)
    toy = ctypes.CDLL(a.toy_lib) if a.expert == "c" else None
    y = torch.empty((L, buf.num_recv_rows, H), dtype=torch.bfloat16)
    out = torch.empty((N, H), dtype=torch.bfloat16)
    g = Gloo(n, L, H, fp8)
    times = {"gshmem-python": ([], []), "gloo": ([], [])}
    verified = True
    for i in range(-a.warmup, a.iters):
        order = ["gshmem-python", "gloo"] if i % 2 == 0 else ["gloo", "gshmem-python"]
        if a.gshmem_only:
            order = ["gshmem-python"]
        outs = {}
        for impl in order:
            if impl == "gloo":
                res, d, c = gloo_round(g, x, idx, w)
            else:
                res, d, c = gshmem_round(buf, x, idx, w, me, fp8, toy, y, out)
            outs[impl] = res
            if i >= 0:
                times[impl][0].append(d)
                times[impl][1].append(c)
        if a.gshmem_only and i == a.iters - 1:
            outs["gloo"] = gloo_round(g, x, idx, w)[0]  # after the timed rounds, untimed
        if "gloo" in outs:
            verified &= torch.equal(outs["gloo"].view(torch.int16),
                                    outs["gshmem-python"].view(torch.int16))
    for impl, (d, c) in times.items():
        if d:
            times[impl] = (slowest(d), slowest(c))
    ok = torch.tensor([int(verified)])
    dist.all_reduce(ok, op=dist.ReduceOp.MIN)
    if me == 0:
        for impl, (d, c) in times.items():
            if not d:
                continue  # --gshmem-only: gloo was not timed
            tot = [p + q for p, q in zip(d, c)]
            for what, v in (("dispatch", d), ("combine", c), ("total", tot)):
                print(json.dumps({"bench": "moe_%s" % what, "impl": impl,
                                  "mode": "normal" if a.normal else "ll", "npes": n,
                                  "tokens": N, "hidden": H, "topk": K, "experts": E,
                                  "dtype": "bf16" if a.bf16 else "fp8", "iters": a.iters,
                                  "rounds": "gshmem-only" if a.gshmem_only else "alternating",
                                  "expert": a.expert if impl != "gloo" else "torch",
                                  "median_us": round(median(v), 1),
                                  "verified": bool(ok[0])}), flush=True)
    buf.destroy()
    gshmem.finalize()
    dist.destroy_process_group()
    if not ok[0]:
        sys.exit(1)


def shape_args(ap, iters, warmup):
    """The options of a round and its shape (moe_bench's "cpu" preset by
    default), which perftest/moe_py_profile.py takes too."""
    ap.add_argument("--iters", type=int, default=iters)
    ap.add_argument("--warmup", type=int, default=warmup)
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=2048)
    ap.add_argument("--topk", type=int, default=8)
    ap.add_argument("--experts-per-pe", type=int, default=8)
    ap.add_argument("--bf16", action="store_true")
    ap.add_argument("--normal", action="store_true")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, default=4)
    shape_args(ap, 20, 3)
    ap.add_argument("--gshmem-only", action="store_true",
                    help="time gshmem's rounds back to back, as moe_bench runs them (no gloo "
                         "round between them); one gloo round at the end checks the output")
    ap.add_argument("--expert", choices=("c", "torch"), default="c",
                    help="gshmem's rounds run moe_bench's C toy expert between the timed phases "
                         "(perftest/moe_toy_py.c: the same work as the C rounds), or torch's")
    ap.add_argument("--toy-lib", default=os.path.join(HERE, ".libs", "libmoe_toy.so"),
                    help="the C toy expert's library (built by make)")
    a = ap.parse_args()
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    try:
        mp.start_processes(worker, args=(a, port), nprocs=a.np, join=True, start_method="spawn")
    except Exception as e:
        print("moe_py_bench: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
