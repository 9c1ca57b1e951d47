"""gshmem.moe.Buffer: MoE dispatch and combine (libgshmem_moe), shaped like
DeepEP's deep_ep.Buffer.

    buf = gshmem.moe.Buffer(hidden=H, num_experts=E, num_topk=K,
                            num_max_dispatch_tokens_per_rank=N,
                            low_latency_mode=True, use_fp8=True)
    recv_x, recv_count, handle = buf.dispatch(x, topk_idx, topk_weights)
    # recv_x: (fp8 bytes uint8 [L, P*N, H], scales float32 [L, P*N, H/128])
    #         or bf16 [L, P*N, H]; rows [0, recv_count[le]) of expert le are
    #         valid, ordered by source PE, then source token
    y = experts(recv_x)                      # bf16 [L, P*N, H]
    out = buf.combine(y, handle)             # bf16 [ntokens, H]

Differences from DeepEP: one Buffer serves one shape (fixed at creation,
not per call), and low_latency_mode picks the mode for its life; the
packed layout of both modes is LL's [L, P*N, H] (DeepEP's normal mode
returns a flat token list with recv_topk_idx instead); fp8 values come as
uint8 bit patterns (torch 1.13 has no float8 dtype); there are no events
or hooks (every call returns when its data is in place).

On a GPU heap (a CUDA build, libgshmem_moe_cuda.so loaded by init) the
kernels run on the GPU; x, topk_idx and topk_weights may be CUDA or CPU
tensors and the results are CUDA tensors.  The C API takes host pointers,
so the tensors are staged through host memory there (compiled, not run).
"""
import ctypes

from . import core
from ._lib import moe_lib, moe_check
from .memory import _torch, on_gpu

FP8, BF16 = 0, 1
LOW_LATENCY, NORMAL = 0, 1


class _Config(ctypes.Structure):
    _fields_ = [("hidden", ctypes.c_int), ("num_experts", ctypes.c_int),
                ("topk", ctypes.c_int), ("max_tokens_per_pe", ctypes.c_int),
                ("format", ctypes.c_int), ("mode", ctypes.c_int)]


class _CHandle(ctypes.Structure):
    _fields_ = [("epoch", ctypes.c_uint32), ("num_tokens", ctypes.c_int)]


class Handle:
    """What dispatch hands combine: the C handle, and the routing it used."""

    def __init__(self, c, topk_idx, topk_weights, recv_count):
        self._c = c
        self.num_tokens = c.num_tokens
        self.topk_idx = topk_idx
        self.topk_weights = topk_weights
        self.recv_count = recv_count


class Buffer:
    """Collective to make (every PE with the same arguments), like DeepEP's."""

    def __init__(self, hidden, num_experts, num_topk, num_max_dispatch_tokens_per_rank,
                 low_latency_mode=True, use_fp8=True, group=None):
        core._need_init("moe.Buffer")
        if group is not None:
            import torch.distributed as dist
            if dist.get_world_size(group) != core.n_pes():
                raise ValueError("gshmem.moe.Buffer: the group has %d ranks but the job %d PEs" %
                                 (dist.get_world_size(group), core.n_pes()))
        self.hidden, self.num_experts, self.num_topk = int(hidden), int(num_experts), int(num_topk)
        self.num_max_dispatch_tokens_per_rank = int(num_max_dispatch_tokens_per_rank)
        self.low_latency_mode, self.use_fp8 = bool(low_latency_mode), bool(use_fp8)
        cfg = _Config(self.hidden, self.num_experts, self.num_topk,
                      self.num_max_dispatch_tokens_per_rank, FP8 if use_fp8 else BF16,
                      LOW_LATENCY if low_latency_mode else NORMAL)
        self._lib = moe_lib()
        b = ctypes.c_void_p()
        moe_check(self._lib.gshmem_moe_create(ctypes.byref(cfg), ctypes.byref(b)))
        self._b = b
        self.num_local_experts = self._lib.gshmem_moe_local_experts(b)
        self.num_recv_rows = self._lib.gshmem_moe_recv_rows(b)

    def destroy(self):
        """Collective: free the buffer's symmetric memory."""
        if self._b:
            self._lib.gshmem_moe_destroy(self._b)
            self._b = None

    def _live(self, fn):
        if not self._b:
            raise ValueError("gshmem.moe.Buffer.%s: the buffer was destroyed" % fn)

    def _check_x(self, fn, name, x, dtype, shape):
        torch = _torch()
        if not isinstance(x, torch.Tensor):
            raise ValueError("gshmem.moe.%s: %s must be a torch.Tensor" % (fn, name))
        if x.device.type != "cpu":
            if not on_gpu() or x.device.type != "cuda":
                raise ValueError("gshmem.moe.%s: %s is on %s; this build's buffers are host "
                                 "memory" % (fn, name, x.device))
            x = x.cpu()  # the C API takes host pointers
        if x.dtype != dtype:
            raise ValueError("gshmem.moe.%s: %s is %s, not %s" % (fn, name, x.dtype, dtype))
        if tuple(x.shape) != tuple(shape):
            raise ValueError("gshmem.moe.%s: %s has shape %s, not %s" %
                             (fn, name, tuple(x.shape), tuple(shape)))
        return x.contiguous()

    def _routing(self, fn, topk_idx, n):
        torch = _torch()
        if not isinstance(topk_idx, torch.Tensor) or topk_idx.dtype not in (torch.int32,
                                                                             torch.int64):
            raise ValueError("gshmem.moe.%s: topk_idx must be an int32 or int64 tensor" % fn)
        idx = self._check_x(fn, "topk_idx", topk_idx, topk_idx.dtype, (n, self.num_topk))
        # The range is checked on the caller's values (an int64 could wrap to
        # a valid int32); the library checks both again, and that no token
        # selects an expert twice, before it sends anything (its line).
        if n and (int(idx.min()) < -1 or int(idx.max()) >= self.num_experts):
            raise ValueError("gshmem.moe.%s: topk_idx holds values outside -1 .. %d" %
                             (fn, self.num_experts - 1))
        return idx if idx.dtype == torch.int32 else idx.to(torch.int32)

    def dispatch(self, x, topk_idx, topk_weights=None):
        """Collective.  x: bf16 [ntokens, hidden], ntokens <= the buffer's
        num_max_dispatch_tokens_per_rank; topk_idx [ntokens, num_topk] (int64
        as DeepEP, or int32; -1 = none); topk_weights float32, kept in the
        handle for combine.  Returns (recv_x, recv_count, handle)."""
        torch = _torch()
        fn = "dispatch"
        self._live(fn)
        if not isinstance(x, torch.Tensor) or x.dim() != 2:
            raise ValueError("gshmem.moe.dispatch: x must be a 2-D torch.Tensor [ntokens, hidden]")
        n = x.shape[0]
        if n > self.num_max_dispatch_tokens_per_rank:
            raise ValueError("gshmem.moe.dispatch: %d tokens, more than the buffer's "
                             "num_max_dispatch_tokens_per_rank %d" %
                             (n, self.num_max_dispatch_tokens_per_rank))
        x = self._check_x(fn, "x", x, torch.bfloat16, (n, self.hidden))
        idx = self._routing(fn, topk_idx, n)
        if topk_weights is not None:
            topk_weights = self._check_x(fn, "topk_weights", topk_weights, torch.float32,
                                         (n, self.num_topk))
        L, R, H = self.num_local_experts, self.num_recv_rows, self.hidden
        if self.use_fp8:
            q = torch.empty((L, R, H), dtype=torch.uint8)
            scales = torch.empty((L, R, H // 128), dtype=torch.float32)
            recv_x, vals, sp = (q, scales), q.data_ptr(), scales.data_ptr()
        else:
            recv_x = torch.empty((L, R, H), dtype=torch.bfloat16)
            vals, sp = recv_x.data_ptr(), None
        count = torch.empty(L, dtype=torch.int32)
        c = _CHandle()
        moe_check(self._lib.gshmem_moe_dispatch(self._b, x.data_ptr(), idx.data_ptr(), n, vals, sp,
                                                count.data_ptr(), ctypes.byref(c)))
        if on_gpu():
            count = count.cuda()
            recv_x = tuple(t.cuda() for t in recv_x) if self.use_fp8 else recv_x.cuda()
        return recv_x, count, Handle(c, idx, topk_weights, count)

    def combine(self, x, handle, topk_weights=None):
        """Collective.  x: bf16 [num_local_experts, P*N, hidden], the expert
        outputs in recv_x's order; topk_weights float32 [ntokens, num_topk]
        (default: those given to dispatch).  Returns bf16 [ntokens, hidden]."""
        torch = _torch()
        fn = "combine"
        self._live(fn)
        if not isinstance(handle, Handle):
            raise ValueError("gshmem.moe.combine: handle must be what dispatch returned")
        n = handle.num_tokens
        x = self._check_x(fn, "x", x, torch.bfloat16,
                          (self.num_local_experts, self.num_recv_rows, self.hidden))
        w = topk_weights if topk_weights is not None else handle.topk_weights
        if w is None:
            raise ValueError("gshmem.moe.combine: no topk_weights (give them here or to dispatch)")
        w = self._check_x(fn, "topk_weights", w, torch.float32, (n, self.num_topk))
        out = torch.empty((n, self.hidden), dtype=torch.bfloat16)
        moe_check(self._lib.gshmem_moe_combine(self._b, x.data_ptr(), w.data_ptr(),
                                               ctypes.byref(handle._c), out.data_ptr()))
        return out.cuda() if on_gpu() else out

    def recv_source(self, handle, local_expert, row):
        """(source PE, source token) of row `row` of local expert `local_expert`."""
        self._live("recv_source")
        pe, tok = ctypes.c_int(), ctypes.c_int()
        moe_check(self._lib.gshmem_moe_recv_source(self._b, ctypes.byref(handle._c),
                                                   int(local_expert), int(row), ctypes.byref(pe),
                                                   ctypes.byref(tok)))
        return pe.value, tok.value
