"""gshmem for Python: the symmetric heap as torch tensors, host RMA, signals,
collectives, a DeepEP-like MoE Buffer and KV-cache transfer (gshmem.kv), over
libgshmem.so, libgshmem_moe.so and libgshmem_kv.so through ctypes (no
compiled extension).  README.md, "Python", shows the use."""
from . import _deps

_deps.ensure()

from ._lib import GshmemError  # noqa: E402
from .core import (init, finalize, is_initialized, get_unique_id, my_pe, n_pes,  # noqa: E402
                   barrier_all)
from .memory import empty, zeros, array, free, peer_tensor  # noqa: E402
from .rma import (put, get, put_signal, signal_op, signal_fetch, signal_wait_until,  # noqa: E402
                  quiet, fence)
from .coll import barrier, sync, broadcast, fcollect, alltoall, sum_reduce  # noqa: E402
from . import moe  # noqa: E402
from . import kv  # noqa: E402

__all__ = ["GshmemError", "init", "finalize", "is_initialized", "get_unique_id", "my_pe", "n_pes",
           "barrier_all", "empty", "zeros", "array", "free", "peer_tensor", "put", "get",
           "put_signal", "signal_op", "signal_fetch", "signal_wait_until", "quiet", "fence",
           "barrier", "sync", "broadcast", "fcollect", "alltoall", "sum_reduce", "moe", "kv"]
