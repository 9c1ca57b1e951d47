"""Host result tensors that a later call reuses once nobody holds them.

moe.Buffer's dispatch returns receive tensors of [L, P*N, H] (8 MiB of fp8
values at 4 PEs of perftest/moe_bench's "cpu" shape) and combine a [T, H]
output, every call.  Made by torch.empty, each is a fresh block from glibc,
which gives blocks this big back to the kernel on free, so the library's
writes into it fault in and zero fresh pages every call: 100 to 350 faults
per dispatch, 200 us of a 1.5 ms dispatch + combine at 1 PE (the C API's
callers keep their buffers; on a GPU torch's caching allocator keeps them).

A block here goes back into use only when no tensor, view or array over it
is alive anywhere: the tensor is torch.from_numpy over an ndarray the pool
keeps, torch's storage holds a reference to that ndarray for as long as any
tensor or view of the storage lives, so the ndarray's reference count says
whether anyone outside the pool still has it.  A caller that keeps every
result gets fresh memory each time, as from torch.empty.
"""
import sys

import numpy as np

from .memory import _torch

# Blocks kept per pool: two low-latency dispatches may be in flight, each
# with its results held, and a caller may keep the previous round's too.
KEEP = 4

# sys.getrefcount(self._blocks[i]) of a block nobody else holds: the list's
# reference and the call's argument.
_IDLE_REFS = 2


class Pool:
    """Blocks for tensors of one dtype, reused for the same shape.  numpy
    has no bfloat16: such a pool keeps int16 blocks and views them.

    take() gives a block and its address, in plain Python, so the C call
    can go first; tensor() wraps the block after it.  A collective call's
    work before its C call delays every PE waiting for this one's data, and
    right after a dispatch has streamed megabytes through the caches each
    torch call costs 5 to 30 us, not the 1 us it costs warm."""

    def __init__(self, dtype):
        torch = _torch()
        self._dtype = dtype
        self._np = {torch.uint8: np.uint8, torch.int32: np.int32, torch.float32: np.float32,
                    torch.bfloat16: np.int16}[dtype]
        self._view = dtype == torch.bfloat16
        self._blocks, self._addrs = [], []

    def take(self, shape):
        """(block, address): an idle block of shape, else a new one (kept
        while the pool has room)."""
        blocks = self._blocks
        for i in range(len(blocks)):
            if blocks[i].shape == shape and sys.getrefcount(blocks[i]) == _IDLE_REFS:
                return blocks[i], self._addrs[i]
        if len(blocks) >= KEEP:
            self._drop_idle()
        block = np.empty(shape, dtype=self._np)
        addr = block.__array_interface__["data"][0]
        if len(blocks) < KEEP:
            blocks.append(block)
            self._addrs.append(addr)
        return block, addr

    def tensor(self, block):
        """The torch tensor over a block from take()."""
        t = _torch().from_numpy(block)
        return t.view(self._dtype) if self._view else t

    def _drop_idle(self):
        """Forget an idle block (of another shape: combine's rows vary)."""
        for i in range(len(self._blocks)):
            if sys.getrefcount(self._blocks[i]) == _IDLE_REFS:
                del self._blocks[i], self._addrs[i]
                return

    def clear(self):
        self._blocks, self._addrs = [], []
