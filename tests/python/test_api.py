"""The core of the Python package on every PE: PE numbers, tensors and arrays
on the heap, RMA, signals, ordering, collectives, and the errors."""
import os

import numpy as np
import pytest
import torch

import gshmem


def me_n():
    return gshmem.my_pe(), gshmem.n_pes()


def test_pe_numbers(job):
    me, n = me_n()
    assert 0 <= me < n
    if job in ("group", "uid"):
        import torch.distributed as dist
        assert (me, n) == (dist.get_rank(), dist.get_world_size())
    ids = gshmem.zeros(n, torch.int32)
    mine = gshmem.zeros(1, torch.int32)
    mine[0] = me
    gshmem.fcollect(ids, mine)
    assert ids.tolist() == list(range(n)), ids.tolist()
    gshmem.free(ids)
    gshmem.free(mine)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32, torch.int64, torch.uint8])
def test_empty_is_on_the_heap(dtype):
    t = gshmem.empty((3, 5), dtype)
    assert t.shape == (3, 5) and t.dtype == dtype and t.device.type == "cpu"
    assert t.is_contiguous()
    z = gshmem.zeros((7,), dtype)
    assert bool((z == 0).all())
    # on the heap: a peer reaches it (shmem_ptr of this PE is itself)
    assert gshmem.peer_tensor(t, gshmem.my_pe()).data_ptr() == t.data_ptr()
    gshmem.free(z)
    gshmem.free(t)


def test_zero_size_tensor():
    t = gshmem.empty((0, 4), torch.float32)
    assert t.shape == (0, 4)
    gshmem.free(t)


def test_numpy_array():
    me, n = me_n()
    a = gshmem.array((4,), np.int64)
    a[:] = me
    gshmem.barrier()
    got = np.zeros(4, dtype=np.int64)
    gshmem.get(got, a, (me + 1) % n)
    assert got.tolist() == [(me + 1) % n] * 4
    gshmem.barrier()
    gshmem.free(a)


def test_put_get_ring():
    me, n = me_n()
    right, left = (me + 1) % n, (me - 1) % n
    dst = gshmem.zeros(64, torch.bfloat16)
    src = torch.arange(64, dtype=torch.float32).to(torch.bfloat16) + me
    gshmem.put(dst, src, right)
    gshmem.barrier()
    exp = torch.arange(64, dtype=torch.float32).to(torch.bfloat16) + left
    assert torch.equal(dst, exp), (dst[:4], exp[:4])
    back = torch.empty(64, dtype=torch.bfloat16)
    gshmem.get(back, dst, right)
    assert torch.equal(back, src)
    gshmem.barrier()
    gshmem.free(dst)


def test_peer_tensor_load_store():
    me, n = me_n()
    t = gshmem.zeros(8, torch.int32)
    right = (me + 1) % n
    if os.environ.get("GSHMEM_DISABLE_P2P") == "1" and n > 1:
        with pytest.raises(gshmem.GshmemError, match="not mapped"):
            gshmem.peer_tensor(t, right)
    else:
        p = gshmem.peer_tensor(t, right)
        p.fill_(100 + me)
        gshmem.barrier()
        assert t.tolist() == [100 + (me - 1) % n] * 8
    gshmem.barrier()
    gshmem.free(t)


def test_put_signal_and_wait():
    me, n = me_n()
    right = (me + 1) % n
    data = gshmem.zeros(16, torch.float32)
    sig = gshmem.zeros(1, torch.int64)
    gshmem.put_signal(data, torch.full((16,), float(me)), sig, 1 + me, "set", right)
    got = gshmem.signal_wait_until(sig, "eq", 1 + (me - 1) % n)
    assert got == 1 + (me - 1) % n
    assert data.tolist() == [float((me - 1) % n)] * 16
    gshmem.barrier()
    gshmem.signal_op(sig, 5, "add", right)
    gshmem.quiet()
    gshmem.barrier()
    assert gshmem.signal_fetch(sig) == 1 + (me - 1) % n + 5
    gshmem.fence()
    gshmem.barrier()
    gshmem.free(sig)
    gshmem.free(data)


def test_broadcast():
    me, n = me_n()
    root = n - 1
    src = gshmem.zeros(10, torch.float64)
    dst = gshmem.zeros(10, torch.float64)
    if me == root:
        src.copy_(torch.arange(10, dtype=torch.float64) * 1.5)
    gshmem.broadcast(dst, src, root)
    assert dst.tolist() == [i * 1.5 for i in range(10)]
    gshmem.free(dst)
    gshmem.free(src)


def test_fcollect():
    me, n = me_n()
    src = gshmem.zeros(3, torch.int64)
    src.copy_(torch.tensor([me, me * 10, me * 100]))
    dst = gshmem.zeros(3 * n, torch.int64)
    gshmem.fcollect(dst, src)
    assert dst.tolist() == [v for p in range(n) for v in (p, p * 10, p * 100)]
    gshmem.free(dst)
    gshmem.free(src)


def test_alltoall():
    me, n = me_n()
    src = gshmem.zeros((n, 2), torch.int32)
    for j in range(n):
        src[j] = torch.tensor([me * 100 + j, -me])
    dst = gshmem.zeros((n, 2), torch.int32)
    gshmem.alltoall(dst, src)
    assert dst.tolist() == [[p * 100 + me, -p] for p in range(n)]
    gshmem.free(dst)
    gshmem.free(src)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.float64])
def test_sum_reduce(dtype):
    me, n = me_n()
    src = gshmem.zeros(5, dtype)
    src.copy_(torch.arange(5).to(dtype) + me)
    dst = gshmem.zeros(5, dtype)
    gshmem.sum_reduce(dst, src)
    exp = [sum(i + p for p in range(n)) for i in range(5)]
    assert dst.tolist() == pytest.approx(exp)
    gshmem.free(dst)
    gshmem.free(src)


def test_pe_bool_or_float_refused():
    sym = gshmem.zeros(4, torch.float32)
    private = torch.zeros(4, dtype=torch.float32)
    # True used to be taken as PE 1.
    with pytest.raises(ValueError, match="PE True is a bool, not a PE number"):
        gshmem.put(sym, private, True)
    with pytest.raises(ValueError, match="PE 1.0 is not an integer"):
        gshmem.get(private, sym, 1.0)
    gshmem.barrier()
    gshmem.free(sym)


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint16])
def test_numpy_integer_pe(kind):
    # Used to be refused as "out of range".
    me, n = me_n()
    right = (me + 1) % n
    dst = gshmem.zeros(4, torch.int32)
    gshmem.put(dst, torch.full((4,), me, dtype=torch.int32), kind(right))
    gshmem.barrier()
    assert dst.tolist() == [(me - 1) % n] * 4, dst.tolist()
    back = torch.zeros(4, dtype=torch.int32)
    gshmem.get(back, dst, kind(right))
    assert back.tolist() == [me] * 4, back.tolist()
    gshmem.barrier()
    gshmem.free(dst)


def test_float64_signal_refused():
    # Used to be accepted: 8 bytes, added to and compared as integer bits.
    sig = gshmem.zeros(1, torch.float64)
    with pytest.raises(ValueError, match="int64 or uint64 word, not torch.float64"):
        gshmem.signal_op(sig, 1, "add", 0)
    with pytest.raises(ValueError, match="int64 or uint64 word, not torch.float64"):
        gshmem.signal_fetch(sig)
    gshmem.barrier()
    gshmem.free(sig)


def test_errors_before_anything_is_sent():
    me, n = me_n()
    sym = gshmem.zeros(4, torch.float32)
    private = torch.zeros(4, dtype=torch.float32)
    with pytest.raises(ValueError, match="not on the symmetric heap"):
        gshmem.put(private, private, 0)
    with pytest.raises(ValueError, match="is torch.float32 but src is torch.int32|dst is"):
        gshmem.put(sym, torch.zeros(4, dtype=torch.int32), 0)
    with pytest.raises(ValueError, match="4 elements but src 3"):
        gshmem.put(sym, torch.zeros(3), 0)
    with pytest.raises(ValueError, match="out of range"):
        gshmem.put(sym, private, n)
    with pytest.raises(ValueError, match="contiguous"):
        gshmem.get(torch.zeros(8)[::2], sym, 0)
    with pytest.raises(ValueError, match="stream="):
        gshmem.put(sym, private, 0, stream=object())
    with pytest.raises(ValueError, match="one 8-byte word"):
        gshmem.signal_op(sym, 1, "add", 0)
    with pytest.raises(ValueError, match="not 'set' or 'add'"):
        gshmem.signal_op(gshmem.zeros(1, torch.int64)[0:1], 1, "mul", 0)
    with pytest.raises(ValueError, match="no sum reduction"):
        gshmem.sum_reduce(gshmem.zeros(2, torch.bfloat16), gshmem.zeros(2, torch.bfloat16))
    short = gshmem.zeros(3, torch.float32)
    with pytest.raises(ValueError, match="n_pes"):
        gshmem.fcollect(sym, short)
    with pytest.raises(ValueError, match="not the start of a symmetric allocation"):
        gshmem.free(private)
    with pytest.raises(gshmem.GshmemError, match="already initialized"):
        gshmem.init()
    gshmem.barrier()
