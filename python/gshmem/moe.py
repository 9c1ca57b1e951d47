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
from ._reuse import Pool
from .memory import _torch, on_gpu

FP8, BF16 = 0, 1
LOW_LATENCY, NORMAL = 0, 1


class _Config(ctypes.Structure):
    _fields_ = [("hidden", ctypes.c_int), ("num_experts", ctypes.c_int),
                ("topk", ctypes.c_int), ("max_tokens_per_pe", ctypes.c_int),
                ("format", ctypes.c_int), ("mode", ctypes.c_int)]


class _CHandle(ctypes.Structure):
    _fields_ = [("epoch", ctypes.c_uint32), ("num_tokens", ctypes.c_int),
                ("buffer", ctypes.c_uint32)]


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
        # Where dispatch's and combine's host results are made (_reuse.py)
        torch = _torch()
        L, R, H = self.num_local_experts, self.num_recv_rows, self.hidden
        self._recv_shape, self._scale_shape = (L, R, H), (L, R, H // 128)
        self._recv_vals = Pool(torch.uint8 if use_fp8 else torch.bfloat16)
        self._recv_scales, self._out = Pool(torch.float32), Pool(torch.bfloat16)
        self._count = Pool(torch.int32)

    def destroy(self):
        """Collective: free the buffer's symmetric memory."""
        if self._b:
            self._lib.gshmem_moe_destroy(self._b)
            self._b = None
            for pool in (self._recv_vals, self._recv_scales, self._out, self._count):
                pool.clear()

    def _live(self, fn):
        if not self._b:
            raise ValueError("gshmem.moe.Buffer.%s: the buffer was destroyed" % fn)

    # The checks read each attribute once and make no torch call that a
    # CPU tensor of the right kind does not need: they run right after the
    # previous call streamed megabytes through the caches (_reuse.py).
    def _check_x(self, fn, name, x, dtype, shape):
        torch = _torch()
        if not isinstance(x, torch.Tensor):
            raise ValueError("gshmem.moe.%s: %s must be a torch.Tensor" % (fn, name))
        if not x.is_cpu:
            if not on_gpu() or x.device.type != "cuda":
                raise ValueError("gshmem.moe.%s: %s is on %s; this build's buffers are host "
                                 "memory" % (fn, name, x.device))
            x = x.cpu()  # the C API takes host pointers
        if x.dtype != dtype:
            raise ValueError("gshmem.moe.%s: %s is %s, not %s" % (fn, name, x.dtype, dtype))
        if x.shape != shape:
            raise ValueError("gshmem.moe.%s: %s has shape %s, not %s" %
                             (fn, name, tuple(x.shape), tuple(shape)))
        return x.contiguous()

    def _routing(self, fn, topk_idx, n):
        """topk_idx as the library reads it, and whether it is int64: the
        library checks the values (range, no expert twice) at their own
        width before anything is sent, so an int64 is not narrowed here."""
        torch = _torch()
        dtype = topk_idx.dtype if isinstance(topk_idx, torch.Tensor) else None
        if dtype not in (torch.int32, torch.int64):
            raise ValueError("gshmem.moe.%s: topk_idx must be an int32 or int64 tensor" % fn)
        return self._check_x(fn, "topk_idx", topk_idx, dtype, (n, self.num_topk)), \
            dtype == torch.int64

    def _refuse(self, combine):
        """This PE refused its own arguments: it takes part in the call's
        vote (gshmem_moe_refuse), so its peers' call fails naming it instead
        of waiting for its tokens."""
        self._lib.gshmem_moe_refuse(self._b, combine)

    def _dispatch_args(self, x, topk_idx, topk_weights):
        torch = _torch()
        fn = "dispatch"
        if not isinstance(x, torch.Tensor) or x.dim() != 2:
            raise ValueError("gshmem.moe.dispatch: x must be a 2-D torch.Tensor [ntokens, hidden]")
        n = x.shape[0]
        if n > self.num_max_dispatch_tokens_per_rank:
            raise ValueError("gshmem.moe.dispatch: %d tokens, more than the buffer's "
                             "num_max_dispatch_tokens_per_rank %d" %
                             (n, self.num_max_dispatch_tokens_per_rank))
        x = self._check_x(fn, "x", x, torch.bfloat16, (n, self.hidden))
        idx, wide = self._routing(fn, topk_idx, n)
        if topk_weights is not None:
            topk_weights = self._check_x(fn, "topk_weights", topk_weights, torch.float32,
                                         (n, self.num_topk))
        return x, idx, wide, topk_weights

    def dispatch(self, x, topk_idx, topk_weights=None):
        """Collective.  x: bf16 [ntokens, hidden], ntokens <= the buffer's
        num_max_dispatch_tokens_per_rank; topk_idx [ntokens, num_topk] (int64
        as DeepEP, or int32; -1 = none); topk_weights float32, kept in the
        handle for combine.  Returns (recv_x, recv_count, handle).  The
        results may reuse the memory of earlier results that nothing holds
        any more (_reuse.py), as torch's caching allocator does on a GPU."""
        self._live("dispatch")
        try:
            x, idx, wide, topk_weights = self._dispatch_args(x, topk_idx, topk_weights)
        except ValueError:
            self._refuse(0)
            raise
        n = x.shape[0]
        vals, vp = self._recv_vals.take(self._recv_shape)
        scales, sp = self._recv_scales.take(self._scale_shape) if self.use_fp8 else (None, None)
        count, cp = self._count.take((self.num_local_experts,))
        c = _CHandle()
        call = self._lib.gshmem_moe_dispatch_i64 if wide else self._lib.gshmem_moe_dispatch
        moe_check(call(self._b, x.data_ptr(), idx.data_ptr(), n, vp, sp, cp, ctypes.byref(c)))
        vals, count = self._recv_vals.tensor(vals), self._count.tensor(count)
        recv_x = (vals, self._recv_scales.tensor(scales)) if self.use_fp8 else vals
        if on_gpu():
            count = count.cuda()
            recv_x = tuple(t.cuda() for t in recv_x) if self.use_fp8 else recv_x.cuda()
        return recv_x, count, Handle(c, idx, topk_weights, count)

    def _combine_args(self, x, handle, topk_weights, out):
        torch = _torch()
        fn = "combine"
        if not isinstance(handle, Handle):
            raise ValueError("gshmem.moe.combine: handle must be what dispatch returned")
        n = handle.num_tokens
        x = self._check_x(fn, "x", x, torch.bfloat16, self._recv_shape)
        w = topk_weights if topk_weights is not None else handle.topk_weights
        if w is None:
            raise ValueError("gshmem.moe.combine: no topk_weights (give them here or to dispatch)")
        if w is not handle.topk_weights:  # those were checked by dispatch
            w = self._check_x(fn, "topk_weights", w, torch.float32, (n, self.num_topk))
        return x, w, out is None or not self._check_out(out, n)

    def combine(self, x, handle, topk_weights=None, out=None):
        """Collective.  x: bf16 [num_local_experts, P*N, hidden], the expert
        outputs in recv_x's order; topk_weights float32 [ntokens, num_topk]
        (default: those given to dispatch); out: where to write the result
        (bf16 [ntokens, hidden], contiguous), as DeepEP's out=, else a new
        tensor.  Returns the result."""
        self._live("combine")
        try:
            x, w, staged = self._combine_args(x, handle, topk_weights, out)
        except ValueError:
            self._refuse(1)
            raise
        n = handle.num_tokens
        if staged:
            block, op = self._out.take((n, self.hidden))
        else:
            op = out.data_ptr()
        moe_check(self._lib.gshmem_moe_combine(self._b, x.data_ptr(), w.data_ptr(),
                                               ctypes.byref(handle._c), op))
        if out is None:
            out = self._out.tensor(block)
            return out.cuda() if on_gpu() else out
        if staged:
            out.copy_(self._out.tensor(block))  # a CUDA out, through host memory
        return out

    def _check_out(self, out, n):
        """combine's out= checked before anything is sent; True when the
        library can write it directly (host memory)."""
        torch = _torch()
        if not isinstance(out, torch.Tensor):
            raise ValueError("gshmem.moe.combine: out must be a torch.Tensor")
        if out.dtype != torch.bfloat16 or out.shape != (n, self.hidden):
            raise ValueError("gshmem.moe.combine: out is %s %s, not torch.bfloat16 %s" %
                             (out.dtype, tuple(out.shape), (n, self.hidden)))
        if not out.is_contiguous():
            raise ValueError("gshmem.moe.combine: out must be contiguous (it is written in place)")
        if out.is_cpu:
            return True
        if not on_gpu() or out.device.type != "cuda":
            raise ValueError("gshmem.moe.combine: out is on %s; this build's buffers are host "
                             "memory" % out.device)
        return False

    def recv_source(self, handle, local_expert, row):
        """(source PE, source token) of row `row` of local expert `local_expert`."""
        self._live("recv_source")
        pe, tok = ctypes.c_int(), ctypes.c_int()
        moe_check(self._lib.gshmem_moe_recv_source(self._b, ctypes.byref(handle._c),
                                                   int(local_expert), int(row), ctypes.byref(pe),
                                                   ctypes.byref(tok)))
        return pe.value, tok.value
