"""Plain torch/NumPy references for the MoE tests: routing, the fp8 e4m3
quantization of the library (one fp32 scale per 128 values, amax / 448,
round to nearest even, saturating), the toy expert, and the combine's
weighted sum in k order.  Nothing here calls gshmem."""
import numpy as np
import torch


def inputs(pe, seed, ntokens, hidden, num_experts, topk, routing):
    g = torch.Generator().manual_seed(seed * 1009 + pe)
    x = (torch.randn((ntokens, hidden), generator=g) * 3).to(torch.bfloat16)
    idx = torch.full((ntokens, topk), -1, dtype=torch.int64)
    for t in range(ntokens):
        if routing == "random":
            idx[t] = torch.randperm(num_experts, generator=g)[:topk]
        elif routing == "skewed":  # expert 0 is hot: every token picks it
            rest = torch.randperm(num_experts - 1, generator=g)[:topk - 1] + 1
            idx[t] = torch.cat([torch.zeros(1, dtype=torch.int64), rest])
        elif routing == "empty":  # only experts e % 3 == 1: the others receive nothing
            pool = torch.arange(1, num_experts, 3)
            idx[t] = pool[torch.randperm(len(pool), generator=g)[:topk]]
        elif routing == "sparse":  # about a third of the entries -1
            idx[t] = torch.randperm(num_experts, generator=g)[:topk]
            drop = torch.rand(topk, generator=g) < 0.34
            idx[t][drop] = -1
        else:
            raise ValueError(routing)
    w = torch.rand((ntokens, topk), generator=g, dtype=torch.float32)
    return x, idx, w


def _f32(u):
    return np.asarray(u, dtype=np.uint32).view(np.float32)


def f32_to_fp8(f):
    u = np.asarray(f, dtype=np.float32).view(np.uint32)
    s = (u >> 24) & np.uint32(0x80)
    a = u & np.uint32(0x7fffffff)
    x = _f32(a)
    r = a + np.uint32(0x7ffff) + ((a >> 20) & np.uint32(1))
    qn = (r >> 20).astype(np.int32) - (120 << 3)
    with np.errstate(over="ignore", invalid="ignore"):
        t = (x * np.float32(512.0) + np.float32(8388608.0)).view(np.uint32)
    qs = (t - np.uint32(0x4b000000)).view(np.int32)
    q = np.where(a < 0x3c800000, qs, qn)
    q = np.minimum(q, 0x7e)
    q = np.where(a > 0x7f800000, 0x7f, q)
    return (s.astype(np.int32) | q).astype(np.uint8)


def quantize(x):
    """bf16 [n, H] -> (uint8 [n, H], float32 [n, H / 128])."""
    n, h = x.shape
    bits = x.contiguous().view(torch.int16).numpy().astype(np.uint32) & np.uint32(0xffff)
    b = (bits << 16).reshape(n, h // 128, 128)
    amax = _f32((b & np.uint32(0x7fffffff)).max(axis=2) if n else np.zeros((0, h // 128)))
    amax = np.where(amax > np.float32(1e-4), amax, np.float32(1e-4)).astype(np.float32)
    inv = np.float32(448.0) / amax
    q = f32_to_fp8(_f32(b) * inv[..., None])
    return torch.from_numpy(q.reshape(n, h).copy()), torch.from_numpy(
        (amax / np.float32(448.0)).astype(np.float32))


def _fp8_table():
    t = np.zeros(256, dtype=np.float32)
    for q in range(256):
        s, e, m = q >> 7, (q >> 3) & 15, q & 7
        if q & 0x7f == 0x7f:
            v = np.nan
        elif e == 0:
            v = m / 512.0
        else:
            v = 2.0 ** (e - 7) * (1 + m / 8.0)
        t[q] = -v if s else v
    return torch.from_numpy(t)


FP8_TABLE = _fp8_table()


def dequant(q, scales):
    """uint8 [..., H] and float32 [..., H / 128] -> float32 [..., H]."""
    return FP8_TABLE[q.long()] * scales.repeat_interleave(128, dim=-1)


def expert(vals, scales, e):
    """The toy expert e: its input times (e + 1), in bf16."""
    v = vals.float() if scales is None else dequant(vals, scales)
    return (v * float(e + 1)).to(torch.bfloat16)


def run_experts(me, recv_x, count, L, fp8):
    """This PE's L toy experts over what dispatch returned (recv_x: bf16
    [L][R][H], or (uint8, scales) for fp8; count[le] rows valid): y [L][R][H]."""
    vals = recv_x[0] if fp8 else recv_x
    y = torch.zeros(vals.shape, dtype=torch.bfloat16)
    for le in range(L):
        c = int(count[le])
        if fp8:
            y[le, :c] = expert(recv_x[0][le, :c], recv_x[1][le, :c], me * L + le)
        else:
            y[le, :c] = expert(recv_x[le, :c], None, me * L + le)
    return y


def combine(rows, idx, w):
    """sum over k, in k order, of w[t, k] * rows[k][t] (float32), as bf16."""
    n, topk = idx.shape
    acc = torch.zeros((n, rows[0].shape[1]) if rows else (n, 0), dtype=torch.float32)
    for k in range(topk):
        contrib = w[:, k:k + 1] * rows[k].float()
        contrib = torch.where(idx[:, k:k + 1] >= 0, contrib, torch.zeros_like(contrib))
        acc = acc + contrib
    return acc.to(torch.bfloat16)
