"""Tensors and arrays whose storage is the symmetric heap.

gshmem_malloc gives the memory; a NumPy array is laid over it (ctypes), and
the torch tensor shares that array's storage (torch.from_numpy), viewed as
the asked dtype.  The allocation is recorded by its address, so free() and
every RMA or collective call can check that a tensor lies on the heap
before anything is sent (the C library would end the job instead).

On a CUDA build where torch sees a GPU, init loads libgshmem_moe_cuda.so
first, the heap is then device memory, and the tensors are CUDA tensors
laid over it through __cuda_array_interface__ (torch.as_tensor, no copy);
see README.md, "Python".
"""
import ctypes
import operator
import sys
import weakref

from . import _deps

_deps.ensure()

import numpy as np  # noqa: E402

from . import core  # noqa: E402
from . import _lib  # noqa: E402
from ._lib import lib, GshmemError  # noqa: E402

# base address -> (nbytes, the numpy array owning the view)
_allocs = {}
# id -> weak reference to an allocation's owner: the object that every
# tensor or array over the allocation keeps alive (host: the ctypes buffer
# under the NumPy array; GPU: the __cuda_array_interface__ object torch
# holds).  Kept after free too, so finalize knows which memory is still
# viewed (_hold_for_views).
_owners = {}


def _track(owner):
    key = id(owner)
    _owners[key] = weakref.ref(owner, lambda _ref, k=key: _owners.pop(k, None))


def _torch():
    import torch
    return torch


def on_gpu():
    """True when the heap is GPU memory (CUDA tensors, on-stream routines)."""
    return _lib.backend["name"] == "cuda"


def _heap_device_type():
    return "cuda" if on_gpu() else "cpu"


def _no_stream(fn, stream):
    if stream is not None and not on_gpu():
        raise ValueError("gshmem.%s: stream= needs CUDA tensors; this process uses host lanes "
                         "(no device-linked library), where every call is already in order" % fn)


def stream_of(fn, stream):
    """On a GPU heap: the cudaStream_t (an int) to queue on: stream= (a
    torch.cuda.Stream, anything with .cuda_stream or .handle, or an int),
    else torch's current stream, so the call is ordered after the kernels
    that made its inputs.  None on host lanes (a stream= there is refused)."""
    _no_stream(fn, stream)
    if not on_gpu():
        return None
    if stream is None:
        return _torch().cuda.current_stream().cuda_stream
    for attr in ("cuda_stream", "handle"):
        if hasattr(stream, attr):
            return int(getattr(stream, attr))
    if isinstance(stream, int):
        return stream
    raise ValueError("gshmem.%s: stream= must be a torch.cuda.Stream, an object with "
                     ".cuda_stream or .handle, or a cudaStream_t as an int, not %r" % (fn, stream))


class _CudaBytes:
    """nbytes of device memory at ptr, as torch.as_tensor reads it."""

    def __init__(self, ptr, nbytes):
        self.__cuda_array_interface__ = {"shape": (nbytes,), "typestr": "|u1",
                                         "data": (ptr, False), "version": 2, "strides": None}


def _dtype_bytes(dtype):
    torch = _torch()
    if isinstance(dtype, torch.dtype):
        return torch.empty((), dtype=dtype).element_size()
    return np.dtype(dtype).itemsize


def _alloc(nbytes, fn, zero=False):
    core._need_init(fn)
    if nbytes < 0:
        raise ValueError("gshmem.%s: negative size" % fn)
    # Every PE must make the same call (collective); a zero-byte request
    # still takes one block so the tensor has an address to free.
    # zeros() uses gshmem_calloc: zeroed before the call's closing barrier,
    # so no peer's put can land before the zeroing.
    ptr = lib.gshmem_calloc(max(int(nbytes), 1), 1) if zero else lib.gshmem_malloc(
        max(int(nbytes), 1))
    if not ptr:
        raise GshmemError("gshmem.%s: the symmetric heap has no room for %d bytes "
                          "(GSHMEM_DEVICE_HEAP_SIZE / SHMEM_SYMMETRIC_SIZE)" % (fn, nbytes))
    if on_gpu():
        owner = _CudaBytes(ptr, int(nbytes))
        t = _torch().as_tensor(owner, device="cuda")
        _allocs[ptr] = (int(nbytes), t)
        _track(owner)
        return ptr, t
    buf = (ctypes.c_uint8 * max(int(nbytes), 1)).from_address(ptr)
    arr = np.ctypeslib.as_array(buf)
    _track(buf)
    _allocs[ptr] = (int(nbytes), arr)
    return ptr, arr[:nbytes]


def _shape(shape):
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("gshmem: negative dimension in shape %r" % (shape,))
    n = 1
    for s in shape:
        n *= s
    return shape, n


def empty(shape, dtype=None, _zero=False):
    """Collective: a torch tensor of shape and dtype on the symmetric heap."""
    torch = _torch()
    dtype = torch.float32 if dtype is None else dtype
    if not isinstance(dtype, torch.dtype):
        raise ValueError("gshmem.empty: dtype must be a torch.dtype, not %r" % (dtype,))
    shape, n = _shape(shape)
    es = _dtype_bytes(dtype)
    ptr, u8 = _alloc(n * es, "zeros" if _zero else "empty", _zero)
    t = u8 if on_gpu() else torch.from_numpy(u8)
    t = t.view(dtype).view(shape) if n else t.view(dtype).reshape(shape)
    t._gshmem_base = ptr  # a zero-size tensor's data_ptr() is 0: free() finds it here
    return t


def zeros(shape, dtype=None):
    """Collective: empty(), zeroed on every PE before any PE returns."""
    return empty(shape, dtype, _zero=True)


def array(shape, dtype=np.float32):
    """Collective: a NumPy array on the symmetric heap (host heap only)."""
    if on_gpu():
        raise ValueError("gshmem.array: the heap is GPU memory here; use gshmem.empty (a CUDA "
                         "tensor)")
    shape, n = _shape(shape)
    dt = np.dtype(dtype)
    _, u8 = _alloc(n * dt.itemsize, "array")
    return u8.view(dt).reshape(shape)


def _base_of(obj):
    if getattr(obj, "_gshmem_base", None) is not None and nbytes_of(obj) == 0:
        return obj._gshmem_base
    ptr = obj.data_ptr() if hasattr(obj, "data_ptr") else obj.__array_interface__["data"][0]
    return ptr


def free(obj):
    """Collective: give back the memory of a tensor or array from empty/zeros/array."""
    core._need_init("free")
    ptr = _base_of(obj)
    if ptr not in _allocs:
        raise ValueError("gshmem.free: 0x%x is not the start of a symmetric allocation" % ptr)
    del _allocs[ptr]
    lib.gshmem_free(ptr)


def _hold_for_views():
    """Before shmem_finalize.  Tensors and arrays the program still holds
    keep their memory mapped past finalize (gshmemx_heap_hold) until the last
    of them is dropped: reading one after finalize gives what was there, as
    after gshmem.free, where unmapping would have been a SIGSEGV.  Nothing is
    held when nothing views the heap."""
    _allocs.clear()  # the package's own references: only the program's remain
    live = [o for o in (r() for r in list(_owners.values())) if o is not None]
    _owners.clear()
    if not live:
        return
    hold = ctypes.c_void_p()
    if lib.gshmemx_heap_hold(ctypes.byref(hold)) != 0:
        sys.stderr.write("gshmem: PE %d: finalize: %d tensors or arrays still view the heap, and "
                         "it cannot be kept for them (the line above says why): do not use them "
                         "after finalize\n" % (lib.shmem_my_pe(), len(live)))
        return
    left = [len(live)]

    def dropped():
        left[0] -= 1
        if left[0] == 0:
            lib.gshmemx_heap_release(hold)

    for o in live:
        weakref.finalize(o, dropped)


def nbytes_of(obj):
    if hasattr(obj, "element_size"):
        return obj.numel() * obj.element_size()
    return obj.nbytes


def check_symmetric(fn, name, obj):
    """The address and size of a contiguous tensor/array wholly inside one allocation."""
    contiguous = obj.is_contiguous() if hasattr(obj, "is_contiguous") else \
        obj.flags["C_CONTIGUOUS"]
    if not contiguous:
        raise ValueError("gshmem.%s: %s must be contiguous" % (fn, name))
    if hasattr(obj, "device") and obj.device.type != _heap_device_type():
        raise ValueError("gshmem.%s: %s is on %s; this process's heap is %s memory" %
                         (fn, name, obj.device, "GPU" if on_gpu() else "host"))
    ptr, n = _base_of(obj), nbytes_of(obj)
    for base, (size, _) in _allocs.items():
        if base <= ptr and ptr + n <= base + max(size, 1):
            return ptr, n
    raise ValueError("gshmem.%s: %s (0x%x, %d bytes) is not on the symmetric heap "
                     "(make it with gshmem.empty/zeros/array)" % (fn, name, ptr, n))


def check_local(fn, name, obj):
    """A contiguous CPU tensor/array anywhere: its address and size."""
    contiguous = obj.is_contiguous() if hasattr(obj, "is_contiguous") else \
        obj.flags["C_CONTIGUOUS"]
    if not contiguous:
        raise ValueError("gshmem.%s: %s must be contiguous" % (fn, name))
    if hasattr(obj, "device") and obj.device.type not in ("cpu", _heap_device_type()):
        raise ValueError("gshmem.%s: %s is on %s, not the CPU%s" %
                         (fn, name, obj.device, " or the GPU" if on_gpu() else ""))
    return _base_of(obj), nbytes_of(obj)


def check_pe(fn, pe):
    """pe as a Python int: any integer (int, a NumPy integer, a one-element
    integer tensor: whatever has __index__) of the job's range; a bool (True
    would be PE 1), a float or anything else is refused."""
    n = core.n_pes()
    if isinstance(pe, (bool, np.bool_)) or (hasattr(pe, "dtype") and
                                            str(pe.dtype) in ("bool", "torch.bool")):
        raise ValueError("gshmem.%s: PE %r is a bool, not a PE number" % (fn, pe))
    try:
        i = operator.index(pe)
    except TypeError:
        raise ValueError("gshmem.%s: PE %r is not an integer (it is %s)" %
                         (fn, pe, type(pe).__name__)) from None
    if not 0 <= i < n:
        raise ValueError("gshmem.%s: PE %r is out of range: the job has PEs 0 to %d" % (fn, pe, n - 1))
    return i


def peer_tensor(t, pe):
    """The tensor t as PE pe holds it, mapped into this process (load/store),
    or a GshmemError when that peer is not mapped (over the network)."""
    fn = "peer_tensor"
    ptr, n = check_symmetric(fn, "t", t)
    pe = check_pe(fn, pe)
    p = lib.shmem_ptr(ptr, pe)
    if not p:
        raise GshmemError("gshmem.peer_tensor: PE %d is not mapped here (reached over the "
                          "network, e.g. GSHMEM_DISABLE_P2P=1)" % pe)
    torch = _torch()
    if on_gpu():
        return torch.as_tensor(_CudaBytes(p, n), device="cuda").view(t.dtype).view(t.shape)
    buf = (ctypes.c_uint8 * max(n, 1)).from_address(p)
    u8 = np.ctypeslib.as_array(buf)[:n]
    return torch.from_numpy(u8).view(t.dtype).view(t.shape)
