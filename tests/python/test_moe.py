"""gshmem.moe.Buffer against the plain torch reference (ref.py), bit for bit:
what each local expert receives (bf16 rows, or fp8 bytes and scales) and in
which order, the per-expert counts, and the combined output, for random,
skewed, empty and sparse routing, fewer tokens than the maximum, a PE with
no tokens, both modes, and two low-latency dispatches in flight."""
import pytest
import torch

import gshmem
import ref

H, N, K, PER_PE = 256, 12, 3, 4  # hidden, max tokens per PE, top-k, experts per PE


def ntokens(pe, case):
    if case == "full":
        return N
    if case == "fewer":
        return N - 1 - 4 * (pe % 2)
    return 0 if pe == 0 else N - 2  # "none": PE 0 sends nothing


def expected_recv(me, n, E, routing, seed, case, fp8):
    """For each local expert of this PE: the rows it must get, in order."""
    L = E // n
    rows = [[] for _ in range(L)]
    for src in range(n):
        x, idx, _ = ref.inputs(src, seed, ntokens(src, case), H, E, K, routing)
        q = ref.quantize(x) if fp8 else None
        for t in range(x.shape[0]):
            for le in range(L):
                if me * L + le in idx[t].tolist():
                    rows[le].append((src, t, x[t] if not fp8 else (q[0][t], q[1][t])))
    return rows


def expected_out(me, E, routing, seed, case, fp8):
    x, idx, w = ref.inputs(me, seed, ntokens(me, case), H, E, K, routing)
    if fp8:
        q, s = ref.quantize(x)
    rows = []
    for k in range(K):
        e = idx[:, k].clamp(min=0)
        if fp8:
            r = torch.stack([ref.expert(q[t], s[t], int(e[t])) for t in range(x.shape[0])]) \
                if x.shape[0] else torch.zeros((0, H), dtype=torch.bfloat16)
        else:
            r = torch.stack([ref.expert(x[t], None, int(e[t])) for t in range(x.shape[0])]) \
                if x.shape[0] else torch.zeros((0, H), dtype=torch.bfloat16)
        rows.append(r)
    return ref.combine(rows, idx, w)


def check_recv(buf, handle, me, n, E, routing, seed, case, fp8, recv_x, count):
    want = expected_recv(me, n, E, routing, seed, case, fp8)
    for le, rows in enumerate(want):
        assert int(count[le]) == len(rows), ("expert", me * buf.num_local_experts + le,
                                             int(count[le]), len(rows))
        for r, (src, t, payload) in enumerate(rows):
            assert buf.recv_source(handle, le, r) == (src, t)
            if fp8:
                assert torch.equal(recv_x[0][le, r], payload[0]), (le, r, src, t, "fp8 bytes")
                assert torch.equal(recv_x[1][le, r], payload[1]), (le, r, src, t, "scales")
            else:
                got = recv_x[le, r].view(torch.int16)
                assert torch.equal(got, payload.view(torch.int16)), (le, r, src, t)


@pytest.mark.parametrize("low_latency", [True, False], ids=["ll", "normal"])
@pytest.mark.parametrize("fp8", [True, False], ids=["fp8", "bf16"])
@pytest.mark.parametrize("routing,case", [("random", "full"), ("skewed", "fewer"),
                                          ("empty", "full"), ("sparse", "none")])
def test_dispatch_combine_match_reference(low_latency, fp8, routing, case):
    me, n = gshmem.my_pe(), gshmem.n_pes()
    E = PER_PE * n
    seed = 7 + len(routing)
    buf = gshmem.moe.Buffer(hidden=H, num_experts=E, num_topk=K,
                            num_max_dispatch_tokens_per_rank=N, low_latency_mode=low_latency,
                            use_fp8=fp8)
    x, idx, w = ref.inputs(me, seed, ntokens(me, case), H, E, K, routing)
    for rnd in range(2):  # the second round reuses the buffer, with int32 indices
        recv_x, count, handle = buf.dispatch(x, idx if rnd == 0 else idx.to(torch.int32), w)
        check_recv(buf, handle, me, n, E, routing, seed, case, fp8, recv_x, count)
        y = ref.run_experts(me, recv_x, count, buf.num_local_experts, fp8)
        if rnd == 0:
            out = buf.combine(y, handle)
        else:  # DeepEP's out=: written in place, over the first round's result
            given = torch.full_like(out, 7.0)
            out = buf.combine(y, handle, out=given)
            assert out is given
        exp = expected_out(me, E, routing, seed, case, fp8)
        assert out.shape == exp.shape
        assert torch.equal(out.view(torch.int16), exp.view(torch.int16)), \
            (out.float() - exp.float()).abs().max()
    gshmem.barrier()
    buf.destroy()


def test_results_are_reused_only_when_nothing_holds_them():
    """dispatch/combine results come from a pool (gshmem/_reuse.py): a
    result, or only a view of it, that the caller keeps is never written by
    a later call; once nothing holds it its memory is used again."""
    me, n = gshmem.my_pe(), gshmem.n_pes()
    E = PER_PE * n
    buf = gshmem.moe.Buffer(H, E, K, N, low_latency_mode=True, use_fp8=True)
    x, idx, w = ref.inputs(me, 11, N, H, E, K, "random")
    recv_x, count, handle = buf.dispatch(x, idx, w)
    first = recv_x[0].data_ptr()
    vals = recv_x[0][:, :4]  # only a view of the values is kept
    keep_vals, keep_count = vals.clone(), count.clone()
    out = buf.combine(ref.run_experts(me, recv_x, count, buf.num_local_experts, True), handle)
    keep_out = out.clone()
    ptrs = set()
    del recv_x, handle
    for seed in (12, 13, 14, 15, 16):  # more rounds than the pool keeps blocks
        x2, idx2, w2 = ref.inputs(me, seed, N, H, E, K, "skewed")
        r2, c2, h2 = buf.dispatch(x2, idx2, w2)
        ptrs.add(r2[0].data_ptr())
        buf.combine(ref.run_experts(me, r2, c2, buf.num_local_experts, True), h2)
        del r2, c2, h2
    assert first not in ptrs
    assert torch.equal(vals, keep_vals) and torch.equal(count, keep_count)
    assert torch.equal(out.view(torch.int16), keep_out.view(torch.int16))
    assert len(ptrs) == 1, "a result nobody holds was not reused: %d blocks" % len(ptrs)
    del vals, out, count
    r3, c3, h3 = buf.dispatch(x, idx, w)
    assert r3[0].data_ptr() in ptrs | {first}
    buf.combine(ref.run_experts(me, r3, c3, buf.num_local_experts, True), h3)
    gshmem.barrier()
    buf.destroy()


def test_two_low_latency_dispatches_in_flight():
    me, n = gshmem.my_pe(), gshmem.n_pes()
    E = PER_PE * n
    buf = gshmem.moe.Buffer(H, E, K, N, low_latency_mode=True, use_fp8=False)
    xa, ia, wa = ref.inputs(me, 1, N, H, E, K, "random")
    xb, ib, wb = ref.inputs(me, 2, N - 3, H, E, K, "skewed")
    ra, ca, ha = buf.dispatch(xa, ia, wa)
    rb, cb, hb = buf.dispatch(xb, ib)
    with pytest.raises(ValueError,
                       match="gshmem: PE %d: gshmem_moe_dispatch_i64: 2 dispatches" % me):
        buf.dispatch(xa, ia, wa)
    with pytest.raises(ValueError, match="gshmem: PE %d: gshmem_moe_combine: handle of dispatch 2"
                       % me):
        buf.combine(ref.run_experts(me, rb, cb, buf.num_local_experts, False), hb, wb)
    out_a = buf.combine(ref.run_experts(me, ra, ca, buf.num_local_experts, False), ha)
    out_b = buf.combine(ref.run_experts(me, rb, cb, buf.num_local_experts, False), hb, wb)
    assert torch.equal(out_a.view(torch.int16),
                       expected_out(me, E, "random", 1, "full", False).view(torch.int16))
    exp_b = ref.inputs(me, 2, N - 3, H, E, K, "skewed")
    assert out_b.shape == (N - 3, H) and exp_b[0].shape[0] == N - 3
    gshmem.barrier()
    buf.destroy()


def test_bad_arguments_raise_before_sending():
    me, n = gshmem.my_pe(), gshmem.n_pes()
    E = PER_PE * n
    with pytest.raises(ValueError, match="gshmem: PE %d: gshmem_moe_create: hidden 100" % me):
        gshmem.moe.Buffer(100, E, K, N)
    with pytest.raises(ValueError, match="num_experts"):
        gshmem.moe.Buffer(H, E + 1, K, N) if n > 1 else gshmem.moe.Buffer(H, 0, K, N)
    buf = gshmem.moe.Buffer(H, E, K, N, low_latency_mode=False, use_fp8=True)
    x, idx, w = ref.inputs(me, 3, N, H, E, K, "random")
    with pytest.raises(ValueError, match="is torch.float32, not torch.bfloat16"):
        buf.dispatch(x.float(), idx, w)
    with pytest.raises(ValueError, match="more than the buffer's"):
        buf.dispatch(torch.zeros((N + 1, H), dtype=torch.bfloat16), idx, w)
    with pytest.raises(ValueError, match="shape"):
        buf.dispatch(x, idx[:, :2], w)
    bad = idx.clone()
    bad[0, 0] = E
    with pytest.raises(ValueError, match=r"gshmem: PE %d: gshmem_moe_dispatch_i64: "
                       r"topk_idx\[0\]\[0\] = %d is not -1 or an expert 0 to %d" % (me, E, E - 1)):
        buf.dispatch(x, bad, w)
    # An int64 that would wrap to a valid int32 expert is refused at its own width
    bad[0, 0] = 2 ** 32 + 1
    with pytest.raises(ValueError, match=r"topk_idx\[0\]\[0\] = %d is not -1" % (2 ** 32 + 1)):
        buf.dispatch(x, bad, w)
    bad = idx.to(torch.int32)
    bad[2, 1] = -2
    with pytest.raises(ValueError, match=r"gshmem: PE %d: gshmem_moe_dispatch: "
                       r"topk_idx\[2\]\[1\] = -2 is not -1" % me):
        buf.dispatch(x, bad, w)
    dup = idx.clone()
    dup[1, 1] = dup[1, 0]
    with pytest.raises(ValueError, match="gshmem: PE %d: gshmem_moe_dispatch_i64: token 1 selects "
                       "expert %d twice" % (me, int(dup[1, 0]))):
        buf.dispatch(x, dup, w)
    recv_x, count, handle = buf.dispatch(x, idx)
    with pytest.raises(ValueError, match="no topk_weights"):
        buf.combine(ref.run_experts(me, recv_x, count, buf.num_local_experts, True), handle)
    with pytest.raises(ValueError, match="shape"):
        buf.combine(torch.zeros((1, 1, H), dtype=torch.bfloat16), handle, w)
    y = ref.run_experts(me, recv_x, count, buf.num_local_experts, True)
    with pytest.raises(ValueError, match=r"out is torch.float32 \(%d, %d\), not torch.bfloat16" %
                       (N, H)):
        buf.combine(y, handle, w, out=torch.zeros((N, H)))
    with pytest.raises(ValueError, match="out is torch.bfloat16"):
        buf.combine(y, handle, w, out=torch.zeros((N - 1, H), dtype=torch.bfloat16))
    with pytest.raises(ValueError, match="out must be contiguous"):
        buf.combine(y, handle, w, out=torch.zeros((H, N), dtype=torch.bfloat16).t())
    out = buf.combine(ref.run_experts(me, recv_x, count, buf.num_local_experts, True), handle, w)
    assert torch.equal(out.view(torch.int16),
                       expected_out(me, E, "random", 3, "full", True).view(torch.int16))
    gshmem.barrier()
    buf.destroy()


def test_one_pe_refuses_every_pe_fails():
    """Issue 29: dispatch and combine are collective, so when one PE refuses
    its arguments (in Python, or in the library) the others' call must not
    wait for its tokens: every PE raises, the others naming the PE that
    refused, and the buffer is as it was, so the same calls with good
    arguments then work."""
    me, n = gshmem.my_pe(), gshmem.n_pes()
    E, last = PER_PE * n, n - 1
    buf = gshmem.moe.Buffer(H, E, K, N)
    x, idx, w = ref.inputs(me, 5, N, H, E, K, "random")

    def refused(own, fn):
        if me == last:
            return own
        return r"gshmem: PE %d: gshmem_moe_%s(_i64)?: PE %d refused its arguments" % (me, fn, last)

    with pytest.raises(ValueError, match=refused("is torch.float32, not torch.bfloat16",
                                                 "dispatch")):
        buf.dispatch(x.float() if me == last else x, idx, w)
    bad = idx.clone()
    if me == last:
        bad[0, 0] = E
    with pytest.raises(ValueError, match=refused(r"topk_idx\[0\]\[0\] = %d is not -1" % E,
                                                 "dispatch")):
        buf.dispatch(x, bad, w)
    recv_x, count, handle = buf.dispatch(x, idx, w)
    y = ref.run_experts(me, recv_x, count, buf.num_local_experts, True)
    wrong = torch.zeros((1, 1, H), dtype=torch.bfloat16)
    with pytest.raises(ValueError, match=refused("shape", "combine")):
        buf.combine(wrong if me == last else y, handle, w)
    out = buf.combine(y, handle, w)
    assert torch.equal(out.view(torch.int16),
                       expected_out(me, E, "random", 5, "full", True).view(torch.int16))
    gshmem.barrier()
    buf.destroy()
