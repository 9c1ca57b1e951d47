"""The package on a GPU heap (a CUDA build, libgshmem_moe_cuda.so loaded by
init, torch with CUDA): CUDA tensors from empty/zeros, host RMA and
collectives queued on streams (the *_on_stream routines), and the MoE
Buffer with CUDA tensors, checked bit for bit against ref.py.  The GPU kit
(tests/gpu/kit.sh run) runs it; where the heap is host memory every test
is skipped (but the library's loading, in a CUDA build), and test_api.py
checks that stream= is refused there."""
import os
import subprocess
import sys

import pytest
import torch

import gshmem
import ref
from gshmem import _lib
from gshmem.memory import on_gpu


def test_cuda_library_loads():
    """A CUDA build: libgshmem_moe_cuda.so loads (its constructor only hands
    libgshmem.so a pointer, no CUDA call) and has every routine the package
    binds, the MoE API and the on-stream ones.  In a fresh process, on PE 0."""
    path = _lib.cuda_lib_path()
    if path is None:
        pytest.skip("not a CUDA build (no libgshmem_moe_cuda.so)")
    if gshmem.my_pe() != 0:
        return
    code = "import gshmem._lib as l; l.load_cuda(); print(len(l._ON_STREAM), l.cuda_lib_path())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ), timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(len(_lib._ON_STREAM)), path]


@pytest.fixture
def gpu_heap(job):
    """After init (conftest's job): skip where the heap is host memory."""
    if not on_gpu():
        pytest.skip("the heap is not on a GPU here (host lanes)")


def test_empty_is_a_cuda_tensor_on_the_heap(gpu_heap):
    t = gshmem.zeros((4, 8), torch.float32)
    assert t.device.type == "cuda" and t.shape == (4, 8)
    assert int(t.count_nonzero()) == 0
    with pytest.raises(ValueError, match="use gshmem.empty"):
        gshmem.array(4)
    gshmem.free(t)


def test_put_get_on_streams(gpu_heap):
    me, n = gshmem.my_pe(), gshmem.n_pes()
    t = gshmem.zeros(1024, torch.int32)
    src = torch.full((1024,), me + 1, dtype=torch.int32, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    gshmem.put(t, src, (me + 1) % n, stream=s)
    gshmem.barrier_all(stream=s)
    s.synchronize()
    assert torch.equal(t, torch.full_like(t, (me - 1) % n + 1))
    got = torch.empty_like(src)
    gshmem.get(got, t, (me + 1) % n)  # torch's current stream
    torch.cuda.current_stream().synchronize()
    assert torch.equal(got, torch.full_like(got, me + 1))
    gshmem.barrier_all()
    gshmem.free(t)


def test_signal_on_stream(gpu_heap):
    me, n = gshmem.my_pe(), gshmem.n_pes()
    data = gshmem.zeros(64, torch.float32)
    sig = gshmem.zeros(1, torch.int64)
    src = torch.arange(64, dtype=torch.float32, device="cuda") + me
    gshmem.put_signal(data, src, sig, 1, "add", (me + 1) % n)
    gshmem.signal_wait_until(sig, "ge", 1)
    torch.cuda.current_stream().synchronize()
    want = torch.arange(64, dtype=torch.float32, device="cuda") + (me - 1) % n
    assert torch.equal(data, want)
    gshmem.barrier_all()
    torch.cuda.current_stream().synchronize()
    gshmem.free(sig)
    gshmem.free(data)


def test_collectives_on_stream(gpu_heap):
    me, n = gshmem.my_pe(), gshmem.n_pes()
    src = gshmem.empty(16, torch.float32)
    dst = gshmem.empty(16, torch.float32)
    src.fill_(float(me + 1))
    gshmem.sum_reduce(dst, src)
    all_ = gshmem.empty(16 * n, torch.float32)
    gshmem.fcollect(all_, src)
    gshmem.broadcast(src, dst, 0)
    torch.cuda.current_stream().synchronize()
    assert torch.equal(dst, torch.full_like(dst, n * (n + 1) / 2))
    assert torch.equal(all_, torch.arange(1, n + 1, dtype=torch.float32,
                                          device="cuda").repeat_interleave(16))
    gshmem.barrier_all()
    torch.cuda.current_stream().synchronize()
    for t in (all_, dst, src):
        gshmem.free(t)


def experts_on_host(me, recv_x, count, L, fp8):
    """ref.run_experts over a CUDA dispatch's results, copied to the host."""
    host = (recv_x[0].cpu(), recv_x[1].cpu()) if fp8 else recv_x.cpu()
    return ref.run_experts(me, host, count.cpu(), L, fp8)


@pytest.mark.parametrize("low_latency", [True, False], ids=["ll", "normal"])
@pytest.mark.parametrize("fp8", [True, False], ids=["fp8", "bf16"])
def test_moe_with_cuda_tensors(gpu_heap, low_latency, fp8):
    me, n = gshmem.my_pe(), gshmem.n_pes()
    H, N, K, L = 256, 12, 3, 4
    E = L * n
    buf = gshmem.moe.Buffer(H, E, K, N, low_latency_mode=low_latency, use_fp8=fp8)
    x, idx, w = ref.inputs(me, 5, N, H, E, K, "random")
    recv_x, count, handle = buf.dispatch(x.cuda(), idx.cuda(), w.cuda())
    assert count.device.type == "cuda"
    y = experts_on_host(me, recv_x, count, L, fp8)
    assert y.shape == (L, buf.num_recv_rows, H)
    out = buf.combine(y.cuda(), handle)
    assert out.device.type == "cuda"
    if fp8:
        q, s = ref.quantize(x)
    rows = []
    for k in range(K):
        e = idx[:, k].clamp(min=0)
        rows.append(torch.stack([ref.expert(q[t] if fp8 else x[t], s[t] if fp8 else None,
                                            int(e[t])) for t in range(N)]))
    want = ref.combine(rows, idx, w)
    assert torch.equal(out.cpu().view(torch.int16), want.view(torch.int16))
    # The same round again, combined into a CUDA out= (staged through host memory)
    recv_x, count, handle = buf.dispatch(x.cuda(), idx.cuda(), w.cuda())
    y = experts_on_host(me, recv_x, count, L, fp8)
    given = torch.empty_like(out)
    assert buf.combine(y.cuda(), handle, out=given) is given
    assert torch.equal(given.cpu().view(torch.int16), want.view(torch.int16))
    gshmem.barrier()
    torch.cuda.current_stream().synchronize()
    buf.destroy()
