"""Host RMA, signals and ordering on symmetric tensors (OpenSHMEM's host
routines; nvshmem4py's put/get/signal_op/signal_wait).  Every argument is
checked here first, so bad input raises ValueError and nothing is sent.
On a GPU heap each call is queued on a CUDA stream (stream=, default
torch's current stream) through the *_on_stream routines; on host lanes
stream= is refused (ValueError) and each call is done when it returns."""
from . import core
from ._lib import lib, on_stream
from .memory import check_symmetric, check_local, check_pe, stream_of

SIGNAL_SET, SIGNAL_ADD = 0, 1
CMP_EQ, CMP_NE, CMP_GT, CMP_LE, CMP_LT, CMP_GE = 1, 2, 3, 4, 5, 6
_CMPS = {"eq": CMP_EQ, "ne": CMP_NE, "gt": CMP_GT, "le": CMP_LE, "lt": CMP_LT, "ge": CMP_GE}
_SIG_OPS = {"set": SIGNAL_SET, "add": SIGNAL_ADD}


def _same(fn, dst, src):
    if dst.dtype != src.dtype:
        raise ValueError("gshmem.%s: dst is %s but src is %s" % (fn, dst.dtype, src.dtype))
    if _numel(dst) != _numel(src):
        raise ValueError("gshmem.%s: dst has %d elements but src %d" %
                         (fn, _numel(dst), _numel(src)))


def _numel(t):
    return t.numel() if hasattr(t, "numel") else t.size


_SIGNAL_DTYPES = ("int64", "uint64", "torch.int64", "torch.uint64")


def _signal(fn, sig):
    ptr, n = check_symmetric(fn, "signal", sig)
    if n != 8:
        raise ValueError("gshmem.%s: the signal must be one 8-byte word (int64 or uint64 of one "
                         "element), not %d bytes" % (fn, n))
    # A float64 word would be added to and compared as an integer's bits.
    if str(sig.dtype) not in _SIGNAL_DTYPES:
        raise ValueError("gshmem.%s: the signal must be an int64 or uint64 word, not %s" %
                         (fn, sig.dtype))
    return ptr


def put(dst, src, pe, stream=None):
    """Copy local src into symmetric dst on PE pe (returns when src may be reused)."""
    fn = "put"
    core._need_init(fn)
    st = stream_of(fn, stream)
    _same(fn, dst, src)
    d, n = check_symmetric(fn, "dst", dst)
    s, _ = check_local(fn, "src", src)
    pe = check_pe(fn, pe)
    if st is None:
        lib.shmem_putmem(d, s, n, pe)
    else:
        on_stream("putmem")(d, s, n, pe, st)


def get(dst, src, pe, stream=None):
    """Copy symmetric src of PE pe into local dst."""
    fn = "get"
    core._need_init(fn)
    st = stream_of(fn, stream)
    _same(fn, dst, src)
    d, n = check_local(fn, "dst", dst)
    s, _ = check_symmetric(fn, "src", src)
    pe = check_pe(fn, pe)
    if st is None:
        lib.shmem_getmem(d, s, n, pe)
    else:
        on_stream("getmem")(d, s, n, pe, st)


def _op(fn, sig_op):
    op = _SIG_OPS.get(sig_op, sig_op)
    if op not in (SIGNAL_SET, SIGNAL_ADD):
        raise ValueError("gshmem.%s: sig_op %r is not 'set' or 'add'" % (fn, sig_op))
    return op


def put_signal(dst, src, signal, value, sig_op, pe, stream=None):
    """put, then update the signal word on PE pe (after the data is there)."""
    fn = "put_signal"
    core._need_init(fn)
    st = stream_of(fn, stream)
    _same(fn, dst, src)
    d, n = check_symmetric(fn, "dst", dst)
    s, _ = check_local(fn, "src", src)
    sg = _signal(fn, signal)
    op = _op(fn, sig_op)
    pe = check_pe(fn, pe)
    if st is None:
        lib.shmem_putmem_signal(d, s, n, sg, int(value) & (2**64 - 1), op, pe)
    else:
        on_stream("putmem_signal")(d, s, n, sg, int(value) & (2**64 - 1), op, pe, st)


def signal_op(signal, value, sig_op, pe, stream=None):
    fn = "signal_op"
    core._need_init(fn)
    st = stream_of(fn, stream)
    sg = _signal(fn, signal)
    op = _op(fn, sig_op)
    pe = check_pe(fn, pe)
    if st is None:
        (lib.shmem_signal_set if op == SIGNAL_SET else lib.shmem_signal_add)(
            sg, int(value) & (2**64 - 1), pe)
    else:
        on_stream("signal_op")(sg, int(value) & (2**64 - 1), op, pe, st)


def signal_fetch(signal):
    core._need_init("signal_fetch")
    return lib.shmem_signal_fetch(_signal("signal_fetch", signal))


def signal_wait_until(signal, cmp, value, stream=None):
    """Wait until this PE's signal word compares true with value; returns it
    (on a GPU heap: queues the wait on the stream and returns None)."""
    fn = "signal_wait_until"
    core._need_init(fn)
    st = stream_of(fn, stream)
    sg = _signal(fn, signal)
    c = _CMPS.get(cmp, cmp)
    if c not in _CMPS.values():
        raise ValueError("gshmem.%s: cmp %r is not one of %s" % (fn, cmp, sorted(_CMPS)))
    if st is not None:
        on_stream("signal_wait_until")(sg, c, int(value) & (2**64 - 1), st)
        return None
    return lib.shmem_signal_wait_until(sg, c, int(value) & (2**64 - 1))


def quiet(stream=None):
    core._need_init("quiet")
    st = stream_of("quiet", stream)
    if st is None:
        lib.shmem_quiet()
    else:
        on_stream("quiet")(st)


def fence():
    core._need_init("fence")
    lib.shmem_fence()
