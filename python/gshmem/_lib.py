"""The shared libraries through ctypes, their prototypes, and the errors.

libgshmem.so is found, in order: next to an installed package (the libdir
written into _installed.py by `make install`), then in the build tree this
package sits in (python/ beside .libs/), then by the loader's own search.
It is loaded with RTLD_GLOBAL, so libgshmem_moe.so (loaded on first use of
gshmem.moe) binds to the same copy.
"""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


class GshmemError(RuntimeError):
    """A failure the C library reported, with its one-line message."""


def _candidates(name, build_subdir, libtool=True):
    try:
        from . import _installed  # written by make install
        yield os.path.join(_installed.LIBDIR, name)
    except ImportError:
        pass
    top = os.path.dirname(os.path.dirname(_HERE))
    yield os.path.join(top, build_subdir, ".libs", name) if libtool else \
        os.path.join(top, build_subdir, name)
    yield name


def _load(name, build_subdir, libtool=True):
    tried = []
    for path in _candidates(name, build_subdir, libtool):
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("gshmem: cannot load %s; tried: %s" % (name, "; ".join(tried)))


c_size_t, c_int, c_void_p, c_uint64 = ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64

lib = _load("libgshmem.so", ".")


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, list(argtypes)


class UniqueId(ctypes.Structure):
    _fields_ = [("internal", ctypes.c_char * 128)]


class InitAttr(ctypes.Structure):
    _fields_ = [("rank", c_int), ("nranks", c_int), ("uid", UniqueId),
                ("reserved", ctypes.c_char * 64)]


GSHMEMX_INIT_WITH_UNIQUEID = 1 << 3

_proto("shmem_init", None)
_proto("shmem_finalize", None)
_proto("shmem_global_exit", None, c_int)
_proto("shmem_query_initialized", None, ctypes.POINTER(c_int))
_proto("shmem_my_pe", c_int)
_proto("shmem_n_pes", c_int)
_proto("shmem_barrier_all", None)
_proto("shmem_quiet", None)
_proto("shmem_fence", None)
_proto("shmem_team_sync", c_int, c_void_p)
_proto("shmem_team_my_pe", c_int, c_void_p)
_proto("shmem_team_n_pes", c_int, c_void_p)
_proto("shmem_ptr", c_void_p, c_void_p, c_int)
_proto("gshmem_malloc", c_void_p, c_size_t)
_proto("gshmem_calloc", c_void_p, c_size_t, c_size_t)
_proto("gshmem_free", None, c_void_p)
_proto("gshmemx_heap_hold", c_int, ctypes.POINTER(c_void_p))
_proto("gshmemx_heap_release", c_int, c_void_p)
_proto("shmem_putmem", None, c_void_p, c_void_p, c_size_t, c_int)
_proto("shmem_getmem", None, c_void_p, c_void_p, c_size_t, c_int)
_proto("shmem_putmem_signal", None, c_void_p, c_void_p, c_size_t, c_void_p, c_uint64, c_int, c_int)
_proto("shmem_signal_add", None, c_void_p, c_uint64, c_int)
_proto("shmem_signal_set", None, c_void_p, c_uint64, c_int)
_proto("shmem_signal_fetch", c_uint64, c_void_p)
_proto("shmem_signal_wait_until", c_uint64, c_void_p, c_int, c_uint64)
_proto("shmem_broadcastmem", c_int, c_void_p, c_void_p, c_void_p, c_size_t, c_int)
_proto("shmem_fcollectmem", c_int, c_void_p, c_void_p, c_void_p, c_size_t)
_proto("shmem_alltoallmem", c_int, c_void_p, c_void_p, c_void_p, c_size_t)
_proto("gshmemx_get_uniqueid", c_int, ctypes.POINTER(UniqueId))
_proto("gshmemx_set_attr_uniqueid_args", c_int, c_int, c_int, ctypes.POINTER(UniqueId),
       ctypes.POINTER(InitAttr))
_proto("gshmemx_init_attr", c_int, ctypes.c_uint, ctypes.POINTER(InitAttr))

# The sum reductions the tensors' dtypes map to (OpenSHMEM's type names).
SUM_REDUCE = {}
for _t in ("float", "double", "int8", "int16", "int32", "int64", "uint8"):
    _proto("shmem_%s_sum_reduce" % _t, c_int, c_void_p, c_void_p, c_void_p, c_size_t)
    SUM_REDUCE[_t] = getattr(lib, "shmem_%s_sum_reduce" % _t)

TEAM_WORLD = ctypes.addressof(ctypes.c_char.in_dll(lib, "gshmem_team_world"))

_moe = None
# Where the heap and the MoE kernels are: "host" (host lanes, CPU tensors)
# or "cuda" (libgshmem_moe_cuda.so loaded before init and the heap on the
# GPU: CUDA tensors, the *_on_stream routines).
backend = {"name": "host"}


def cuda_lib_path():
    """The CUDA build of libgshmem_moe (a CUDA build of gshmem only), or None."""
    for path in _candidates("libgshmem_moe_cuda.so", os.path.join("libs", "moe"), False):
        if os.sep in path and os.path.exists(path):
            return path
    return None


def load_cuda():
    """Before init: load libgshmem_moe_cuda.so (RTLD_GLOBAL), whose
    constructor registers its device state with libgshmem.so, so init puts
    the heap on this PE's GPU.  It also carries libgshmem_device.a's
    on-stream routines, which a Python process cannot device-link itself."""
    global _moe
    path = cuda_lib_path()
    m = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    _moe_protos(m)
    for name, argtypes in _ON_STREAM:
        f = getattr(m, name)
        f.restype, f.argtypes = (c_int if name in _ON_STREAM_RC else None), argtypes
    _moe = m
    return m


# The on-stream routines Python calls (gsd/stream.h), the stream last.
_S = c_void_p
_ON_STREAM = [
    ("gshmemx_putmem_on_stream", [c_void_p, c_void_p, c_size_t, c_int, _S]),
    ("gshmemx_getmem_on_stream", [c_void_p, c_void_p, c_size_t, c_int, _S]),
    ("gshmemx_putmem_signal_on_stream", [c_void_p, c_void_p, c_size_t, c_void_p, c_uint64, c_int,
                                         c_int, _S]),
    ("gshmemx_signal_op_on_stream", [c_void_p, c_uint64, c_int, c_int, _S]),
    ("gshmemx_signal_wait_until_on_stream", [c_void_p, c_int, c_uint64, _S]),
    ("gshmemx_quiet_on_stream", [_S]),
    ("gshmemx_barrier_all_on_stream", [_S]),
    ("gshmemx_broadcastmem_on_stream", [ctypes.c_int32, c_void_p, c_void_p, c_size_t, c_int, _S]),
    ("gshmemx_fcollectmem_on_stream", [ctypes.c_int32, c_void_p, c_void_p, c_size_t, _S]),
    ("gshmemx_alltoallmem_on_stream", [ctypes.c_int32, c_void_p, c_void_p, c_size_t, _S]),
] + [("gshmemx_%s_sum_reduce_on_stream" % t, [ctypes.c_int32, c_void_p, c_void_p, c_size_t, _S])
     for t in ("float", "double", "int8", "int16", "int32", "int64", "uint8")]
_ON_STREAM_RC = {n for n, _ in _ON_STREAM if "broadcast" in n or "collect" in n or "alltoall" in n
                 or "reduce" in n}
GSHMEM_TEAM_WORLD = 0  # the device team id (gsd/state.h)


def on_stream(name):
    """An on-stream routine of the loaded CUDA library."""
    return getattr(_moe, "gshmemx_%s_on_stream" % name)


def _moe_protos(m):
    m.gshmem_moe_create.restype = c_int
    m.gshmem_moe_create.argtypes = [c_void_p, ctypes.POINTER(c_void_p)]
    m.gshmem_moe_destroy.restype = None
    m.gshmem_moe_destroy.argtypes = [c_void_p]
    m.gshmem_moe_local_experts.restype = c_int
    m.gshmem_moe_local_experts.argtypes = [c_void_p]
    m.gshmem_moe_recv_rows.restype = c_int
    m.gshmem_moe_recv_rows.argtypes = [c_void_p]
    m.gshmem_moe_dispatch.restype = c_int
    m.gshmem_moe_dispatch.argtypes = [c_void_p, c_void_p, c_void_p, c_int, c_void_p, c_void_p,
                                      c_void_p, c_void_p]
    m.gshmem_moe_dispatch_i64.restype = c_int
    m.gshmem_moe_dispatch_i64.argtypes = m.gshmem_moe_dispatch.argtypes
    m.gshmem_moe_combine.restype = c_int
    m.gshmem_moe_combine.argtypes = [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p]
    m.gshmem_moe_recv_source.restype = c_int
    m.gshmem_moe_recv_source.argtypes = [c_void_p, c_void_p, c_int, c_int,
                                         ctypes.POINTER(c_int), ctypes.POINTER(c_int)]
    m.gshmem_moe_refuse.restype = c_int
    m.gshmem_moe_refuse.argtypes = [c_void_p, c_int]
    m.gshmem_moe_error.restype = ctypes.c_char_p
    m.gshmem_moe_error.argtypes = []


def moe_lib():
    """libgshmem_moe.so (or the CUDA build, when init loaded it), loaded on first use."""
    global _moe
    if _moe is None:
        m = _load("libgshmem_moe.so", os.path.join("libs", "moe"))
        _moe_protos(m)
        _moe = m
    return _moe


def moe_check(rc):
    """Raise the C library's line when an MoE call failed."""
    if rc != 0:
        msg = moe_lib().gshmem_moe_error().decode(errors="replace")
        raise (ValueError if rc == -2 else GshmemError)(msg)
