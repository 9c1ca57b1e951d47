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


def _candidates(name, build_subdir):
    try:
        from . import _installed  # written by make install
        yield os.path.join(_installed.LIBDIR, name)
    except ImportError:
        pass
    top = os.path.dirname(os.path.dirname(_HERE))
    yield os.path.join(top, build_subdir, ".libs", name)
    yield name


def _load(name, build_subdir):
    tried = []
    for path in _candidates(name, build_subdir):
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


def moe_lib():
    """libgshmem_moe.so, loaded on first use."""
    global _moe
    if _moe is None:
        m = _load("libgshmem_moe.so", os.path.join("examples", "moe"))
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
        m.gshmem_moe_combine.restype = c_int
        m.gshmem_moe_combine.argtypes = [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p]
        m.gshmem_moe_recv_source.restype = c_int
        m.gshmem_moe_recv_source.argtypes = [c_void_p, c_void_p, c_int, c_int,
                                             ctypes.POINTER(c_int), ctypes.POINTER(c_int)]
        m.gshmem_moe_error.restype = ctypes.c_char_p
        m.gshmem_moe_error.argtypes = []
        _moe = m
    return _moe


def moe_check(rc):
    """Raise the C library's line when an MoE call failed."""
    if rc != 0:
        msg = moe_lib().gshmem_moe_error().decode(errors="replace")
        raise (ValueError if rc == -2 else GshmemError)(msg)
