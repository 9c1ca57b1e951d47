"""Start and stop: a launcher (PMIx) or one PE, a torch.distributed group,
or a unique id; the PE numbers; the world barrier.  nvshmem4py's
nvshmem.core.init(uid=..., rank=..., nranks=..., initializer_method="uid")
is the model, with the group form DeepEP's Buffer uses."""
import atexit
import ctypes
import sys

from . import _lib
from ._lib import lib

_state = {"init": False, "mode": None}


def is_initialized():
    flag = ctypes.c_int(0)
    lib.shmem_query_initialized(ctypes.byref(flag))
    return bool(flag.value)


def get_unique_id():
    """A fresh unique id (bytes, 128): what rank 0 makes and hands to the others."""
    uid = _lib.UniqueId()
    if lib.gshmemx_get_uniqueid(ctypes.byref(uid)) != 0:
        raise _lib.GshmemError("gshmem: gshmemx_get_uniqueid failed")
    return ctypes.string_at(ctypes.addressof(uid), 128)


def _init_uid(uid, rank, nranks):
    if not isinstance(uid, (bytes, bytearray)) or len(uid) != 128:
        raise ValueError("gshmem.init: uid must be the 128 bytes of get_unique_id()")
    if not isinstance(rank, int) or not isinstance(nranks, int) or nranks < 1 or \
            not 0 <= rank < nranks:
        raise ValueError("gshmem.init: rank %r is not 0 to nranks-1 (nranks %r)" % (rank, nranks))
    u = _lib.UniqueId()
    ctypes.memmove(ctypes.addressof(u), bytes(uid), 128)
    attr = _lib.InitAttr()
    if lib.gshmemx_set_attr_uniqueid_args(rank, nranks, ctypes.byref(u), ctypes.byref(attr)) != 0:
        raise _lib.GshmemError("gshmem: gshmemx_set_attr_uniqueid_args failed")
    if lib.gshmemx_init_attr(_lib.GSHMEMX_INIT_WITH_UNIQUEID, ctypes.byref(attr)) != 0:
        raise _lib.GshmemError("gshmem: gshmemx_init_attr failed")


def _uid_from_group(group):
    import torch
    import torch.distributed as dist

    rank, nranks = dist.get_rank(group), dist.get_world_size(group)
    buf = torch.zeros(128, dtype=torch.uint8)
    if rank == 0:
        buf.copy_(torch.frombuffer(bytearray(get_unique_id()), dtype=torch.uint8))
    # The group's rank 0 in the global numbering (broadcast takes global ranks).
    src = dist.get_global_rank(group, 0) if hasattr(dist, "get_global_rank") else \
        dist.distributed_c10d._get_global_rank(group, 0)
    dist.broadcast(buf, src=src, group=group)
    return bytes(buf.numpy().tobytes()), rank, nranks


def _want_cuda():
    """A CUDA build of gshmem (libgshmem_moe_cuda.so is there) and a GPU torch can use."""
    if _lib.cuda_lib_path() is None:
        return False
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def _heap_device():
    """After init: the CUDA device ordinal the heap is on, or None (host memory).
    One probe block, collective like every allocation."""
    cu = ctypes.CDLL("libcuda.so.1")
    p = lib.gshmem_malloc(8)
    kind, dev = ctypes.c_uint(0), ctypes.c_int(-1)
    # CU_POINTER_ATTRIBUTE_MEMORY_TYPE (2) is CU_MEMORYTYPE_DEVICE (2) for device memory;
    # a host pointer the driver does not know gives an error.
    on_dev = cu.cuPointerGetAttribute(ctypes.byref(kind), 2, ctypes.c_void_p(p)) == 0 and \
        kind.value == 2 and \
        cu.cuPointerGetAttribute(ctypes.byref(dev), 9, ctypes.c_void_p(p)) == 0  # ordinal
    lib.gshmem_free(p)
    return dev.value if on_dev else None


def _start_cuda():
    """After init with the CUDA library loaded: the heap must be on a GPU
    (its kernels cannot run on host lanes); torch uses that GPU."""
    import torch
    dev = _heap_device()
    if dev is None:
        raise _lib.GshmemError("gshmem.init: libgshmem_moe_cuda.so is loaded but the heap is not "
                               "on a GPU (see the gshmem: lines above)")
    torch.cuda.set_device(dev)
    _lib.backend["name"], _lib.backend["device"] = "cuda", dev


def init(group=None, uid=None, rank=None, nranks=None):
    """Collective.  No argument: from the launcher's environment (gshmemrun,
    mpirun, srun: PMIx; one PE without one).  group=: a torch.distributed
    process group (its rank 0 makes the unique id and the group broadcasts
    it).  uid=, rank=, nranks=: from a unique id handed around by the caller."""
    if _state["init"] or is_initialized():
        raise _lib.GshmemError("gshmem.init: already initialized (call gshmem.finalize first)")
    if group is not None and uid is not None:
        raise ValueError("gshmem.init: give group= or uid=, not both")
    if uid is None and (rank is not None or nranks is not None) and group is None:
        raise ValueError("gshmem.init: rank= and nranks= go with uid=")
    cuda = _want_cuda()
    if cuda:
        _lib.load_cuda()  # before init: its device state registers, the heap goes on the GPU
    if group is not None:
        uid, rank, nranks = _uid_from_group(group)
        _init_uid(uid, rank, nranks)
        _state["mode"] = "group"
    elif uid is not None:
        _init_uid(uid, rank, nranks)
        _state["mode"] = "uid"
    else:
        lib.shmem_init()
        _state["mode"] = "launcher"
    _state["init"] = True
    _hook_exceptions()
    if cuda:
        _start_cuda()


def finalize():
    """Collective; also runs at exit.  Tensors the caller still holds stay
    readable and writable (their memory is kept until they are dropped), but
    no gshmem routine takes them any more."""
    if not _state["init"]:
        raise _lib.GshmemError("gshmem.finalize: not initialized by gshmem.init")
    from . import memory
    memory._hold_for_views()
    lib.shmem_finalize()
    _state["init"] = False


def _excepthook(etype, value, tb):
    """An uncaught exception: the traceback, then one line naming the PE and
    the exception, then the whole job ends (shmem_global_exit).  Without it
    the interpreter would go on to atexit's finalize, where the other PEs,
    waiting for this one elsewhere, would never join it."""
    _state["prev_hook"](etype, value, tb)
    if not _state["init"] or issubclass(etype, SystemExit):
        return
    try:
        sys.stderr.write("gshmem: PE %d: uncaught %s: %s; ending the job\n" %
                         (lib.shmem_my_pe(), etype.__name__, value))
        sys.stderr.flush()
    finally:
        lib.shmem_global_exit(1)


def _hook_exceptions():
    if sys.excepthook is not _excepthook:
        _state["prev_hook"] = sys.excepthook
        sys.excepthook = _excepthook


@atexit.register
def _finalize_at_exit():
    if _state["init"]:
        finalize()


def _need_init(fn):
    if not _state["init"]:
        raise _lib.GshmemError("gshmem.%s: gshmem is not initialized (call gshmem.init; "
                               "after gshmem.finalize no routine takes the heap's tensors)" % fn)


def my_pe():
    _need_init("my_pe")
    return lib.shmem_my_pe()


def n_pes():
    _need_init("n_pes")
    return lib.shmem_n_pes()


def barrier_all(stream=None):
    """Quiet, then wait for every PE."""
    _need_init("barrier_all")
    if stream is None and _lib.backend["name"] != "cuda":
        lib.shmem_barrier_all()  # host lanes: no stream to look up (a round's hot path)
        return
    from .memory import stream_of
    st = stream_of("barrier_all", stream)
    if st is None:
        lib.shmem_barrier_all()
    else:
        _lib.on_stream("barrier_all")(st)
