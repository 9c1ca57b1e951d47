"""Where one PE's dispatch + combine spends its work from Python, in numbers
that do not depend on the machine's load: minor page faults per call
(getrusage) and, run under callgrind (perftest/moe_count.sh), instruction
counts.  It does the rounds moe_bench does (perftest/moe_bench.c: a
shmem barrier, dispatch, the toy expert, a barrier, combine) at the same
shape, so the two can be set side by side.

    gshmemrun -np 2 python3 perftest/moe_py_profile.py [--iters 5] [--warmup 2]
        [--tokens 128 --hidden 2048 --topk 8 --experts-per-pe 8] [--bf16] [--normal]

Prints one JSON line per PE: faults per dispatch and per combine (median)."""
import argparse
import json
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))  # ref.py

import gshmem  # noqa: E402  (first: it makes Debian's torch importable)
import torch  # noqa: E402

import moe_py_bench  # noqa: E402  (beside this file: the options they share)
import ref  # noqa: E402


def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def main():
    ap = argparse.ArgumentParser()
    moe_py_bench.shape_args(ap, 5, 2)
    ap.add_argument("--pause-file", default=None,
                    help="after the warm-up, PE 0 creates this file and waits until it is gone "
                         "(moe_count.sh turns callgrind's instrumentation on meanwhile)")
    a = ap.parse_args()
    gshmem.init()
    me, n = gshmem.my_pe(), gshmem.n_pes()
    L, H, N, K, fp8 = a.experts_per_pe, a.hidden, a.tokens, a.topk, not a.bf16
    x, idx, w = ref.inputs(me, 1, N, H, L * n, K, "random")
    buf = gshmem.moe.Buffer(H, L * n, K, N, low_latency_mode=not a.normal, use_fp8=fp8)
    d, c = [], []
    for i in range(-a.warmup, a.iters):
        if i == 0 and a.pause_file and me == 0:
            open(a.pause_file, "w").close()
            while os.path.exists(a.pause_file):
                time.sleep(0.2)
        gshmem.barrier_all()
        f0 = faults()
        recv_x, count, handle = buf.dispatch(x, idx, w)
        f1 = faults()
        gshmem.barrier_all()
        y = torch.zeros((L, buf.num_recv_rows, H), dtype=torch.bfloat16)
        for le in range(L):
            k = int(count[le])
            q, s = (recv_x[0][le, :k], recv_x[1][le, :k]) if fp8 else (recv_x[le, :k], None)
            y[le, :k] = ref.expert(q, s, me * L + le)
        gshmem.barrier_all()
        f2 = faults()
        out = buf.combine(y, handle)
        f3 = faults()
        if i >= 0:
            d.append(f1 - f0)
            c.append(f3 - f2)
        del recv_x, out
    print(json.dumps({"pe": me, "npes": n, "faults_per_dispatch": sorted(d)[len(d) // 2],
                      "faults_per_combine": sorted(c)[len(c) // 2]}), flush=True)
    buf.destroy()
    gshmem.finalize()


if __name__ == "__main__":
    main()
