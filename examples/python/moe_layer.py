"""A small MoE layer forward over gshmem on every PE: router -> dispatch ->
per-expert MLP -> combine, checked against the same layer computed in one
process, with the time per dispatch and per combine.

    gshmemrun -np 4 python3 examples/python/moe_layer.py [--fp8] [--normal]
        [--tokens N] [--hidden H] [--experts-per-pe L] [--topk K] [--iters I]

Every PE builds the same weights (seed 0) and its own tokens (seed 1 + PE),
so every PE can also compute the whole layer alone: that is the reference.
Exit status 1 when an output differs from it by more than bf16 rounding of
the MLP allows."""
import argparse
import sys
import time

import gshmem
import torch


def layer_weights(E, H, F):
    g = torch.Generator().manual_seed(0)
    router = torch.randn((H, E), generator=g) / H ** 0.5
    w1 = torch.randn((E, H, F), generator=g) / H ** 0.5
    w2 = torch.randn((E, F, H), generator=g) / F ** 0.5
    return router, w1, w2


def tokens(pe, N, H):
    g = torch.Generator().manual_seed(1 + pe)
    return torch.randn((N, H), generator=g).to(torch.bfloat16)


def route(x, router, K):
    logits = x.float() @ router
    w, idx = torch.topk(torch.softmax(logits, dim=-1), K, dim=-1)
    return idx, (w / w.sum(dim=-1, keepdim=True)).float()


def mlp(v, w1, w2, e):
    return (torch.relu(v.float() @ w1[e]) @ w2[e]).to(torch.bfloat16)


def dequant(q, scales):
    table = torch.tensor([_fp8(i) for i in range(256)], dtype=torch.float32)
    return table[q.long()] * scales.repeat_interleave(128, dim=-1)


def _fp8(q):
    s, e, m = q >> 7, (q >> 3) & 15, q & 7
    v = float("nan") if q & 0x7f == 0x7f else (m / 512.0 if e == 0 else 2.0 ** (e - 7) * (1 + m / 8))
    return -v if s else v


def reference(me, x, router, w1, w2, K):
    idx, w = route(x, router, K)
    out = torch.zeros(x.shape, dtype=torch.float32)
    for t in range(x.shape[0]):
        for k in range(K):
            out[t] += w[t, k] * mlp(x[t:t + 1], w1, w2, int(idx[t, k]))[0].float()
    return out.to(torch.bfloat16)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fp8", action="store_true", help="fp8 dispatch payload (default bf16)")
    ap.add_argument("--normal", action="store_true", help="normal mode (default low latency)")
    ap.add_argument("--tokens", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--ffn", type=int, default=128)
    ap.add_argument("--experts-per-pe", type=int, default=2)
    ap.add_argument("--topk", type=int, default=2)
    ap.add_argument("--iters", type=int, default=10)
    a = ap.parse_args()

    gshmem.init()
    me, n = gshmem.my_pe(), gshmem.n_pes()
    E, H, N, K = a.experts_per_pe * n, a.hidden, a.tokens, a.topk
    router, w1, w2 = layer_weights(E, H, a.ffn)
    x = tokens(me, N, H)
    buf = gshmem.moe.Buffer(hidden=H, num_experts=E, num_topk=K,
                            num_max_dispatch_tokens_per_rank=N,
                            low_latency_mode=not a.normal, use_fp8=a.fp8)
    L = buf.num_local_experts
    t_disp, t_comb = [], []
    for _ in range(a.iters):
        idx, w = route(x, router, K)
        gshmem.barrier_all()
        t0 = time.perf_counter()
        recv_x, count, handle = buf.dispatch(x, idx, w)
        t1 = time.perf_counter()
        y = torch.zeros((L, buf.num_recv_rows, H), dtype=torch.bfloat16)
        for le in range(L):
            c = int(count[le])
            v = dequant(recv_x[0][le, :c], recv_x[1][le, :c]) if a.fp8 else recv_x[le, :c]
            y[le, :c] = mlp(v, w1, w2, me * L + le)
        gshmem.barrier_all()
        t2 = time.perf_counter()
        out = buf.combine(y, handle)
        t3 = time.perf_counter()
        t_disp.append((t1 - t0) * 1e6)
        t_comb.append((t3 - t2) * 1e6)

    ref = reference(me, x, router, w1, w2, K)
    # fp8 inputs and batched matmuls round differently from the one-process
    # reference: compare within what bf16 and e4m3 allow.
    tol = 0.15 if a.fp8 else 0.03
    err = ((out.float() - ref.float()).abs() / (ref.float().abs() + 1.0)).max().item()
    ok = torch.zeros(1, dtype=torch.int32)
    bad = gshmem.zeros(1, torch.int32)
    total = gshmem.zeros(1, torch.int32)
    bad[0] = int(err > tol)
    gshmem.sum_reduce(total, bad)
    ok[0] = int(total[0]) == 0
    if me == 0:
        med = lambda v: sorted(v)[len(v) // 2]  # noqa: E731
        print("gshmem MoE layer: %d PEs, %d tokens/PE, H=%d, %d experts, top-%d, %s, %s" %
              (n, N, H, E, K, "fp8" if a.fp8 else "bf16",
               "normal" if a.normal else "low-latency"))
        print("  dispatch %.1f us, combine %.1f us (median of %d, PE 0); max rel. error %.4f: %s" %
              (med(t_disp), med(t_comb), a.iters, err, "verified" if ok[0] else "WRONG RESULT"))
    gshmem.free(total)
    gshmem.free(bad)
    buf.destroy()
    gshmem.finalize()
    return 0 if ok[0] else 1


if __name__ == "__main__":
    sys.exit(main())
