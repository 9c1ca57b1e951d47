"""Collectives over the world on symmetric tensors: barrier, broadcast,
fcollect, alltoall, sum_reduce (OpenSHMEM's team routines on
SHMEM_TEAM_WORLD).  Shapes and dtypes are checked first: ValueError, and
nothing is sent.  On a GPU heap they are queued on a CUDA stream (stream=,
default torch's current stream) through the *_on_stream routines."""
from . import core
from ._lib import lib, GshmemError, SUM_REDUCE, TEAM_WORLD, GSHMEM_TEAM_WORLD, on_stream
from .memory import check_symmetric, check_pe, stream_of


def _n(t):
    return t.numel() if hasattr(t, "numel") else t.size


def _es(t):
    return t.element_size() if hasattr(t, "element_size") else t.itemsize


def _types(fn, dst, src):
    if dst.dtype != src.dtype:
        raise ValueError("gshmem.%s: dst is %s but src is %s" % (fn, dst.dtype, src.dtype))


def _rc(fn, rc):
    if rc != 0:
        raise GshmemError("gshmem.%s: the collective returned %d" % (fn, rc))


def barrier(stream=None):
    """Quiet this PE's puts, then wait for every PE (shmem_barrier_all)."""
    core._need_init("barrier")
    st = stream_of("barrier", stream)
    if st is None:
        lib.shmem_barrier_all()
    else:
        on_stream("barrier_all")(st)


def sync():
    """Wait for every PE, without quiet (shmem_team_sync on the world)."""
    core._need_init("sync")
    _rc("sync", lib.shmem_team_sync(TEAM_WORLD))


def broadcast(dst, src, root, stream=None):
    """dst on every PE = src of PE root (same shape)."""
    fn = "broadcast"
    core._need_init(fn)
    st = stream_of(fn, stream)
    _types(fn, dst, src)
    if _n(dst) != _n(src):
        raise ValueError("gshmem.%s: dst has %d elements but src %d" % (fn, _n(dst), _n(src)))
    root = check_pe(fn, root)
    d, n = check_symmetric(fn, "dst", dst)
    s, _ = check_symmetric(fn, "src", src)
    if st is None:
        _rc(fn, lib.shmem_broadcastmem(TEAM_WORLD, d, s, n, root))
    else:
        _rc(fn, on_stream("broadcastmem")(GSHMEM_TEAM_WORLD, d, s, n, root, st))


def fcollect(dst, src, stream=None):
    """dst = the src of every PE, in PE order (dst has n_pes times src's elements)."""
    fn = "fcollect"
    core._need_init(fn)
    st = stream_of(fn, stream)
    _types(fn, dst, src)
    if _n(dst) != _n(src) * core.n_pes():
        raise ValueError("gshmem.%s: dst has %d elements, not n_pes (%d) x src's %d" %
                         (fn, _n(dst), core.n_pes(), _n(src)))
    d, _ = check_symmetric(fn, "dst", dst)
    s, n = check_symmetric(fn, "src", src)
    if st is None:
        _rc(fn, lib.shmem_fcollectmem(TEAM_WORLD, d, s, n))
    else:
        _rc(fn, on_stream("fcollectmem")(GSHMEM_TEAM_WORLD, d, s, n, st))


def alltoall(dst, src, stream=None):
    """Block j of src goes to PE j's block me of dst (n_pes equal blocks)."""
    fn = "alltoall"
    core._need_init(fn)
    st = stream_of(fn, stream)
    _types(fn, dst, src)
    npes = core.n_pes()
    if _n(dst) != _n(src) or _n(src) % npes:
        raise ValueError("gshmem.%s: src and dst must have the same element count, a multiple "
                         "of n_pes (%d): %d and %d" % (fn, npes, _n(src), _n(dst)))
    d, _ = check_symmetric(fn, "dst", dst)
    s, n = check_symmetric(fn, "src", src)
    if st is None:
        _rc(fn, lib.shmem_alltoallmem(TEAM_WORLD, d, s, n // npes))
    else:
        _rc(fn, on_stream("alltoallmem")(GSHMEM_TEAM_WORLD, d, s, n // npes, st))


def _type_name(dtype):
    import numpy as np
    try:
        import torch
        torch_names = {torch.float32: "float", torch.float64: "double", torch.int8: "int8",
                       torch.int16: "int16", torch.int32: "int32", torch.int64: "int64",
                       torch.uint8: "uint8"}
        if dtype in torch_names:
            return torch_names[dtype]
    except ImportError:
        pass
    try:
        dt = np.dtype(dtype)
    except TypeError:
        return None
    return {np.dtype(np.float32): "float", np.dtype(np.float64): "double",
            np.dtype(np.int8): "int8", np.dtype(np.int16): "int16", np.dtype(np.int32): "int32",
            np.dtype(np.int64): "int64", np.dtype(np.uint8): "uint8"}.get(dt)


def sum_reduce(dst, src, stream=None):
    """dst on every PE = the elementwise sum of every PE's src."""
    fn = "sum_reduce"
    core._need_init(fn)
    st = stream_of(fn, stream)
    _types(fn, dst, src)
    name = _type_name(src.dtype)
    if name is None:
        raise ValueError("gshmem.%s: dtype %s has no sum reduction (float32, float64, int8, "
                         "int16, int32, int64, uint8)" % (fn, src.dtype))
    if _n(dst) != _n(src):
        raise ValueError("gshmem.%s: dst has %d elements but src %d" % (fn, _n(dst), _n(src)))
    d, _ = check_symmetric(fn, "dst", dst)
    s, _ = check_symmetric(fn, "src", src)
    if st is None:
        _rc(fn, SUM_REDUCE[name](TEAM_WORLD, d, s, _n(src)))
    else:
        _rc(fn, on_stream("%s_sum_reduce" % name)(GSHMEM_TEAM_WORLD, d, s, _n(src), st))
