"""gshmem.kv: KV-cache transfer between the PEs of a job (libgshmem_kv,
include/gshmem_kv.h), for disaggregated prefill and decode.

    eng = gshmem.kv.Engine()                          # collective
    caches = [gshmem.zeros((2, num_blocks, block_size, kv_heads, head_size),
                           torch.bfloat16) for _ in range(num_layers)]
    lay = eng.register_kv_caches(caches)              # collective; vLLM's shape
    req = eng.read(lay, pe, local_blocks=[4, 5, 6], remote_blocks=[0, 1, 2],
                   signal=done, signal_value=1, signal_op="add")
    req.wait()                                        # or req.test(), eng.poll()
    print(req.stats())                                # bytes, ops, post/xfer ns
    req.free()

A cache is one tensor per layer: [2, num_blocks, ...] (K and V: two
regions per layer) or [num_blocks, ...] (one region, MLA's latent); a block
is everything after the block index, contiguous.  Caches on the symmetric
heap (gshmem.empty / zeros) can be read and written by peers; other CPU
tensors only from this PE's side.  The library checks every argument
before any byte moves: a bad one raises KVError (ValueError for what this
module checks itself) with the C library's line.  Waits that run out
raise KVTimeout.  FileTier stores blocks to a file of slots and loads them
back with the same arguments and Requests (the storage tier); BlockStore
keeps blocks under 16-byte keys (chunk_keys makes them from tokens), with
LRU eviction and an index that survives a crash.  README.md and
the header say the rest.

A process outside the job (a decode server, another job) is a peer too:
blob = eng.local_info() on one side, peer = eng.add_peer(blob) on the
other (the blob crosses the application's own channel), or
where = eng.listen(secret) and peer = eng.connect(where, secret) (the
library's own channel, authenticated), then eng.read(lay, peer, ...) as
with a PE, over UCX.

Small messages: eng.send(peer, b"request 17 read") puts up to MSG_MAX bytes
in a PE's or an outside peer's mailbox; eng.recv() returns the Messages
waiting (oldest first: peer, pe, engine, data).  A transfer to a peer
outside the job signals one of that engine's signal words: signal=i (an
int, 0 <= i < SIGNAL_WORDS) there, read with eng.signal(i).
"""
import collections
import ctypes
import os

import numpy as np

from .. import core
from .._lib import GshmemError, _load
from ..memory import _torch, check_symmetric, check_pe

# The status codes (GSHMEM_KV_STATUS_MAP in gshmem_kv.h).
STATUS = {0: "OK", 1: "INPROGRESS", -1: "ERR_INVALID", -2: "ERR_HANDLE", -3: "ERR_NOT_FOUND",
          -4: "ERR_RANGE", -5: "ERR_MISMATCH", -6: "ERR_TIMEOUT", -7: "ERR_CANCELED",
          -8: "ERR_STATE", -9: "ERR_BUSY", -10: "ERR_NOMEM",
          -11: "ERR_IO", -12: "ERR_PEER", -13: "ERR_UNSUPPORTED", -14: "ERR_AUTH",
          -15: "ERR_CORRUPT"}
INPROGRESS, ERR_HANDLE, ERR_TIMEOUT, ERR_CANCELED, ERR_IO, ERR_PEER = 1, -2, -6, -7, -11, -12
# Peer ids of add_peer start here (GSHMEM_KV_PEER_REMOTE): never a PE number.
PEER_REMOTE = 1 << 20
FILE_WRITE, FILE_CREATE, FILE_DIRECT = 1, 2, 4
STORE_WRITE, STORE_CREATE, STORE_DIRECT, STORE_SYNC = 1, 2, 4, 8
SIGNAL_SET, SIGNAL_ADD = 0, 1
_SIG_OPS = {"set": SIGNAL_SET, "add": SIGNAL_ADD}
WAIT_DEFAULT = -1
SIGNAL_WORDS, MSG_MAX = 64, 1000  # GSHMEM_KV_SIGNAL_WORDS, GSHMEM_KV_MSG_MAX
# A message: who sent it (peer: a PE, a peer id of add_peer, or -1: an
# engine outside the job this one has not added), its PE in its own job,
# its engine's id (0: a PE of this job), and the bytes.
Message = collections.namedtuple("Message", "peer pe engine data")


class KVError(GshmemError):
    """A gshmem_kv call failed: .status (negative), .name ("ERR_RANGE"), the line."""

    def __init__(self, status, line):
        super().__init__(line)
        self.status, self.name = status, STATUS.get(status, "ERR_%d" % status)


class KVTimeout(KVError, TimeoutError):
    """Request.wait ran out of time; the request is still live."""


class _Config(ctypes.Structure):
    _fields_ = [("max_layouts", ctypes.c_int), ("max_regions", ctypes.c_int),
                ("max_requests", ctypes.c_int), ("progress_thread", ctypes.c_int),
                ("default_timeout_ms", ctypes.c_int64)]


class _Layout(ctypes.Structure):
    _fields_ = [("n_layers", ctypes.c_int), ("regions_per_layer", ctypes.c_int),
                ("n_blocks", ctypes.c_int64), ("block_bytes", ctypes.c_size_t),
                ("block_stride", ctypes.c_size_t), ("region_base", ctypes.c_void_p)]


class _Signal(ctypes.Structure):
    _fields_ = [("addr", ctypes.c_void_p), ("value", ctypes.c_uint64), ("op", ctypes.c_int)]


class _Xfer(ctypes.Structure):
    _fields_ = [("layout", ctypes.c_int), ("pe", ctypes.c_int), ("layer_first", ctypes.c_int),
                ("n_layers", ctypes.c_int), ("region_mask", ctypes.c_uint32),
                ("offset", ctypes.c_size_t), ("length", ctypes.c_size_t),
                ("n", ctypes.c_size_t), ("local_blocks", ctypes.c_void_p),
                ("remote_blocks", ctypes.c_void_p), ("signal", _Signal)]


class _Stats(ctypes.Structure):
    _fields_ = [("bytes", ctypes.c_uint64), ("blocks", ctypes.c_uint64), ("ops", ctypes.c_uint64),
                ("post_ns", ctypes.c_uint64), ("xfer_ns", ctypes.c_uint64)]


class _FileOpts(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint), ("slot_bytes", ctypes.c_size_t),
                ("size", ctypes.c_uint64), ("queue_depth", ctypes.c_int)]


class _StoreOpts(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint), ("entry_bytes", ctypes.c_size_t),
                ("capacity", ctypes.c_int64), ("queue_depth", ctypes.c_int)]


class _StoreStats(ctypes.Structure):
    _fields_ = [("capacity", ctypes.c_int64), ("entries", ctypes.c_int64),
                ("entry_bytes", ctypes.c_size_t), ("hits", ctypes.c_uint64),
                ("misses", ctypes.c_uint64), ("evictions", ctypes.c_uint64),
                ("dropped", ctypes.c_uint64)]


class _Msg(ctypes.Structure):
    _fields_ = [("peer", ctypes.c_int), ("pe", ctypes.c_int), ("engine", ctypes.c_uint64),
                ("len", ctypes.c_size_t), ("data", ctypes.c_ubyte * MSG_MAX)]


class _Completion(ctypes.Structure):
    _fields_ = [("req", ctypes.c_uint64), ("status", ctypes.c_int)]


_kv = None


def kv_lib():
    """libgshmem_kv.so, loaded on first use (beside libgshmem.so)."""
    global _kv
    if _kv is not None:
        return _kv
    m = _load("libgshmem_kv.so", os.path.join("libs", "kv"))
    P, V, I, U64 = ctypes.POINTER, ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64
    for name, res, args in [
            ("gshmem_kv_create", I, [P(_Config), P(V)]),
            ("gshmem_kv_destroy", I, [V]),
            ("gshmem_kv_layout_register", I, [V, P(_Layout), P(I)]),
            ("gshmem_kv_layout_deregister", I, [V, I]),
            ("gshmem_kv_layout_hash", U64, [P(_Layout)]),
            ("gshmem_kv_read", I, [V, P(_Xfer), P(U64)]),
            ("gshmem_kv_write", I, [V, P(_Xfer), P(U64)]),
            ("gshmem_kv_test", I, [V, U64]),
            ("gshmem_kv_wait", I, [V, U64, ctypes.c_int64]),
            ("gshmem_kv_cancel", I, [V, U64]),
            ("gshmem_kv_poll", I, [V, P(_Completion), ctypes.c_size_t, P(ctypes.c_size_t)]),
            ("gshmem_kv_req_stats", I, [V, U64, P(_Stats)]),
            ("gshmem_kv_req_free", I, [V, U64]),
            ("gshmem_kv_file_open", I, [V, ctypes.c_char_p, P(_FileOpts), P(V)]),
            ("gshmem_kv_file_close", I, [V, V]),
            ("gshmem_kv_file_store", I, [V, V, P(_Xfer), P(U64)]),
            ("gshmem_kv_file_load", I, [V, V, P(_Xfer), P(U64)]),
            ("gshmem_kv_file_engine", ctypes.c_char_p, [V, V]),
            ("gshmem_kv_store_open", I, [V, ctypes.c_char_p, P(_StoreOpts), P(V)]),
            ("gshmem_kv_store_close", I, [V, V]),
            ("gshmem_kv_store_put", I, [V, V, ctypes.c_char_p, P(_Xfer), P(U64)]),
            ("gshmem_kv_store_get", I, [V, V, ctypes.c_char_p, P(_Xfer), P(U64)]),
            ("gshmem_kv_store_contains", ctypes.c_int64, [V, V, ctypes.c_char_p, ctypes.c_size_t,
                                                          V]),
            ("gshmem_kv_store_evict", ctypes.c_int64, [V, V, ctypes.c_char_p, ctypes.c_size_t]),
            ("gshmem_kv_store_stats", I, [V, V, P(_StoreStats)]),
            ("gshmem_kv_local_info", I, [V, V, ctypes.c_size_t, P(ctypes.c_size_t)]),
            ("gshmem_kv_peer_add", I, [V, ctypes.c_char_p, ctypes.c_size_t, P(I)]),
            ("gshmem_kv_peer_remove", I, [V, I]),
            ("gshmem_kv_listen", I, [V, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                     ctypes.c_size_t]),
            ("gshmem_kv_connect", I, [V, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64,
                                      P(I)]),
            ("gshmem_kv_signal_word", P(U64), [V, I]),
            ("gshmem_kv_msg_send", I, [V, I, ctypes.c_char_p, ctypes.c_size_t]),
            ("gshmem_kv_msg_recv", I, [V, P(_Msg), ctypes.c_size_t, P(ctypes.c_size_t)]),
            ("gshmem_kv_error", ctypes.c_char_p, []),
            ("gshmem_kv_status_str", ctypes.c_char_p, [I])]:
        f = getattr(m, name)
        f.restype, f.argtypes = res, args
    _kv = m
    return m


def _text(fn, name, value):
    if not isinstance(value, str):
        raise ValueError("gshmem.kv.%s: %s must be a str, not %s" % (fn, name,
                                                                type(value).__name__))
    return value.encode()


def _check(rc):
    if rc < 0:
        line = kv_lib().gshmem_kv_error().decode(errors="replace")
        raise (KVTimeout if rc == ERR_TIMEOUT else KVError)(rc, line)
    return rc


def _ids(fn, name, blocks):
    """Block ids as a contiguous int64 array (kept alive by the caller)."""
    a = np.ascontiguousarray(np.asarray(blocks.cpu() if hasattr(blocks, "cpu") else blocks),
                             dtype=np.int64)
    if a.ndim != 1:
        raise ValueError("gshmem.kv.%s: %s must be one-dimensional, not of shape %s" %
                         (fn, name, a.shape))
    return a


class Layout:
    """A registered layout: its id (the same on every PE) and shape."""

    def __init__(self, engine, id, n_layers, regions_per_layer, n_blocks, block_bytes, keep):
        self.engine, self.id = engine, id
        self.n_layers, self.regions_per_layer = n_layers, regions_per_layer
        self.n_blocks, self.block_bytes = n_blocks, block_bytes
        self._keep = keep  # the tensors, alive while registered

    def __repr__(self):
        return "gshmem.kv.Layout(id=%d, layers=%d, regions=%d, blocks=%d, block_bytes=%d)" % (
            self.id, self.n_layers, self.regions_per_layer, self.n_blocks, self.block_bytes)


class Request:
    """One read or write in progress: test, wait, cancel, stats, free."""

    def __init__(self, engine, handle):
        self.engine, self.handle = engine, handle
        self.canceled = False

    def _h(self):
        return self.engine._live("Request"), self.handle

    def test(self):
        """True once ended (done or canceled; .canceled says which)."""
        kv, h = self._h()
        rc = kv_lib().gshmem_kv_test(kv, h)
        if rc == ERR_CANCELED:
            self.canceled = True
            return True
        return _check(rc) != INPROGRESS

    def wait(self, timeout=None):
        """Until the request ends, at most timeout seconds (None: the
        engine's default): "done" or "canceled"; KVTimeout after that."""
        kv, h = self._h()
        ns = WAIT_DEFAULT if timeout is None else int(timeout * 1e9)
        if ns < 0 and timeout is not None:
            raise ValueError("gshmem.kv.Request.wait: timeout %r is negative" % (timeout,))
        rc = kv_lib().gshmem_kv_wait(kv, h, ns)
        if rc == ERR_CANCELED:
            return "canceled"
        _check(rc)
        return "done"

    def cancel(self):
        kv, h = self._h()
        _check(kv_lib().gshmem_kv_cancel(kv, h))

    def stats(self):
        """bytes, blocks, ops (RMA operations after coalescing), post_ns, xfer_ns."""
        kv, h = self._h()
        s = _Stats()
        _check(kv_lib().gshmem_kv_req_stats(kv, h, ctypes.byref(s)))
        return {f: getattr(s, f) for f, _ in _Stats._fields_}

    def free(self):
        kv, h = self._h()
        _check(kv_lib().gshmem_kv_req_free(kv, h))


class Engine:
    """Collective to make (every PE), like the C engine."""

    def __init__(self, max_layouts=0, max_regions=0, max_requests=0, progress_thread=False,
                 default_timeout_ms=0):
        core._need_init("kv.Engine")
        cfg = _Config(int(max_layouts), int(max_regions), int(max_requests),
                      1 if progress_thread else 0, int(default_timeout_ms))
        kv = ctypes.c_void_p()
        _check(kv_lib().gshmem_kv_create(ctypes.byref(cfg), ctypes.byref(kv)))
        self._kv = kv.value
        self._layouts = {}

    def _live(self, fn):
        if not self._kv:
            raise ValueError("gshmem.kv.%s: the engine was destroyed" % fn)
        return self._kv

    def destroy(self):
        """Collective: completes what is in flight, deregisters, frees."""
        kv = self._live("Engine.destroy")
        _check(kv_lib().gshmem_kv_destroy(kv))
        self._kv = None
        self._layouts.clear()

    def register(self, n_layers, regions_per_layer, n_blocks, block_bytes, region_bases,
                 block_stride=0, keep=None):
        """Collective: a layout from raw addresses (region r of layer l at
        region_bases[l * regions_per_layer + r]).  keep: objects to hold
        while it is registered."""
        kv = self._live("Engine.register")
        n = int(n_layers) * int(regions_per_layer)
        if len(region_bases) != n:
            raise ValueError("gshmem.kv.register: %d region bases for %d layers x %d regions" %
                             (len(region_bases), n_layers, regions_per_layer))
        bases = (ctypes.c_void_p * max(n, 1))(*[int(b) for b in region_bases])
        lay = _Layout(int(n_layers), int(regions_per_layer), int(n_blocks), int(block_bytes),
                      int(block_stride), ctypes.cast(bases, ctypes.c_void_p))
        id = ctypes.c_int(-1)
        _check(kv_lib().gshmem_kv_layout_register(kv, ctypes.byref(lay), ctypes.byref(id)))
        layout = Layout(self, id.value, int(n_layers), int(regions_per_layer), int(n_blocks),
                        int(block_bytes), keep)
        self._layouts[id.value] = layout
        return layout

    def register_kv_caches(self, caches):
        """Collective: one tensor per layer, [2, num_blocks, ...] (K, V) or,
        with every tensor one dimension less than that, [num_blocks, ...]
        (MLA), contiguous tensors of one shape and dtype, on the CPU or on
        one CUDA device.  Caches in GPU memory move to and from the storage
        tier (FileTier: staged through host memory, or GPUDirect Storage), to
        peers outside the job where UCX is built with CUDA (add_peer,
        connect), and between PEs when they lie on the device heap
        (gshmem.empty on a GPU); elsewhere read and write raise KVError
        ERR_UNSUPPORTED with the reason."""
        fn = "register_kv_caches"
        torch = _torch()
        caches = list(caches.values()) if isinstance(caches, dict) else list(caches)
        if not caches:
            raise ValueError("gshmem.kv.%s: no caches" % fn)
        first = caches[0]
        for i, t in enumerate(caches):
            if not isinstance(t, torch.Tensor):
                raise ValueError("gshmem.kv.%s: caches[%d] is not a torch.Tensor" % (fn, i))
            if t.device.type not in ("cpu", "cuda") or t.device != first.device:
                raise ValueError("gshmem.kv.%s: caches[%d] is on %s; host memory or one CUDA "
                                 "device, the same for every cache" % (fn, i, t.device))
            if not t.is_contiguous():
                raise ValueError("gshmem.kv.%s: caches[%d] is not contiguous" % (fn, i))
            if t.shape != first.shape or t.dtype != first.dtype:
                raise ValueError("gshmem.kv.%s: caches[%d] is %s %s, caches[0] %s %s" %
                                 (fn, i, tuple(t.shape), t.dtype, tuple(first.shape),
                                  first.dtype))
        kv_pair = first.dim() >= 3 and first.shape[0] == 2
        rpl = 2 if kv_pair else 1
        per_region = first[0] if kv_pair else first
        n_blocks = per_region.shape[0]
        if n_blocks < 1:
            raise ValueError("gshmem.kv.%s: no blocks in shape %s" % (fn, tuple(first.shape)))
        block_bytes = per_region[0].numel() * first.element_size()
        bases = []
        for t in caches:
            for r in range(rpl):
                bases.append((t[r] if kv_pair else t).data_ptr())
        return self.register(len(caches), rpl, n_blocks, block_bytes, bases, keep=caches)

    def deregister(self, layout):
        """Collective."""
        kv = self._live("Engine.deregister")
        _check(kv_lib().gshmem_kv_layout_deregister(kv, layout.id))
        self._layouts.pop(layout.id, None)

    def _desc(self, fn, layout, pe, local_blocks, remote_blocks, layers, regions, offset,
              length, signal, signal_value, signal_op):
        """The C descriptor (and the id arrays it points into, to keep)."""
        if not isinstance(layout, Layout) or layout.engine is not self:
            raise ValueError("gshmem.kv.%s: layout must be a Layout of this engine" % fn)
        lb = _ids(fn, "local_blocks", local_blocks)
        rb = None if remote_blocks is None else _ids(fn, "remote_blocks", remote_blocks)
        if rb is not None and rb.shape != lb.shape:
            raise ValueError("gshmem.kv.%s: %d local_blocks but %d remote_blocks" %
                             (fn, lb.size, rb.size))
        if layers is None:
            first, count = 0, layout.n_layers
        else:
            layers = range(layers, layers + 1) if isinstance(layers, int) else layers
            if not isinstance(layers, range) or layers.step != 1 or len(layers) == 0:
                raise ValueError("gshmem.kv.%s: layers must be an int or a non-empty range "
                                 "with step 1, not %r" % (fn, layers))
            first, count = layers.start, len(layers)
        mask = 0
        for r in ([] if regions is None else regions):
            mask |= 1 << int(r)
        sig = _Signal(None, 0, 0)
        if signal is not None and isinstance(pe, int) and pe >= PEER_REMOTE:
            # A peer outside the job: one of its signal words, by index.
            if isinstance(signal, bool) or not isinstance(signal, int) or \
                    not 0 <= signal < SIGNAL_WORDS:
                raise ValueError("gshmem.kv.%s: a signal to a peer outside the job is the index "
                                 "of one of its signal words (an int, 0 to %d), not %r" %
                                 (fn, SIGNAL_WORDS - 1, signal))
            if signal_op not in _SIG_OPS:
                raise ValueError("gshmem.kv.%s: signal_op %r is not 'set' or 'add'" %
                                 (fn, signal_op))
            ptr = ctypes.cast(self._word(fn, signal), ctypes.c_void_p).value
            sig = _Signal(ptr, int(signal_value) & (2 ** 64 - 1), _SIG_OPS[signal_op])
        elif signal is not None:
            ptr, n = check_symmetric(fn, "signal", signal)
            if n != 8:
                raise ValueError("gshmem.kv.%s: the signal must be one 8-byte word (int64 or "
                                 "uint64 of one element), not %d bytes" % (fn, n))
            if signal_op not in _SIG_OPS:
                raise ValueError("gshmem.kv.%s: signal_op %r is not 'set' or 'add'" %
                                 (fn, signal_op))
            sig = _Signal(ptr, int(signal_value) & (2 ** 64 - 1), _SIG_OPS[signal_op])
        x = _Xfer(layout.id, pe, first, count, mask, int(offset), int(length), lb.size,
                  lb.ctypes.data if lb.size else None,
                  None if rb is None or not rb.size else rb.ctypes.data, sig)
        return x, (lb, rb)

    def local_info(self):
        """This PE's blob (bytes): what a process outside the job needs to
        reach the layouts registered now (add_peer there).  Whoever holds it
        can read and write them: send it over a channel you trust."""
        kv = self._live("Engine.local_info")
        n = ctypes.c_size_t(0)
        _check(kv_lib().gshmem_kv_local_info(kv, None, 0, ctypes.byref(n)))
        buf = ctypes.create_string_buffer(n.value)
        _check(kv_lib().gshmem_kv_local_info(kv, buf, n.value, ctypes.byref(n)))
        return buf.raw[:n.value]

    def add_peer(self, info):
        """A peer outside the job from its local_info() blob: an id (>=
        PEER_REMOTE) to pass as pe to read, write and send (signal=: the
        index of one of its signal words)."""
        kv = self._live("Engine.add_peer")
        if not isinstance(info, (bytes, bytearray)):
            raise ValueError("gshmem.kv.add_peer: info must be the bytes of local_info(), not %s"
                             % type(info).__name__)
        peer = ctypes.c_int(-1)
        _check(kv_lib().gshmem_kv_peer_add(kv, bytes(info), len(info), ctypes.byref(peer)))
        return peer.value

    def listen(self, secret, address=":0"):
        """Serve this PE's blob to whoever connects with the same secret (a
        str of at least 16 characters); returns "host:port" to hand out."""
        kv = self._live("Engine.listen")
        bound = ctypes.create_string_buffer(300)
        _check(kv_lib().gshmem_kv_listen(kv, _text("listen", "address", address),
                                         _text("listen", "secret", secret), bound, 300))
        return bound.value.decode()

    def connect(self, address, secret, timeout=None):
        """A peer from a listener at address ("host:port"), both sides
        proving the secret; timeout in seconds (None: the engine's
        default).  KVError ERR_AUTH for a wrong secret, ERR_PEER when
        nothing listens there."""
        kv = self._live("Engine.connect")
        ms = 0 if timeout is None else max(1, int(timeout * 1000))
        peer = ctypes.c_int(-1)
        _check(kv_lib().gshmem_kv_connect(kv, _text("connect", "address", address),
                                          _text("connect", "secret", secret), ms,
                                          ctypes.byref(peer)))
        return peer.value

    def _word(self, fn, i):
        w = kv_lib().gshmem_kv_signal_word(self._live(fn), int(i))
        if not w:
            raise KVError(-4, kv_lib().gshmem_kv_error().decode())
        return w

    def signal(self, i):
        """The value of this engine's signal word i (what peers outside the
        job set or add with signal=i)."""
        if isinstance(i, bool) or not isinstance(i, int):
            raise ValueError("gshmem.kv.signal: i must be an int, not %r" % (i,))
        return self._word("Engine.signal", i)[0]

    def send(self, peer, data):
        """Puts data (bytes, at most MSG_MAX) in the mailbox of peer (a PE
        of the job or an add_peer id); returns once it is there.  A full
        mailbox raises KVError ERR_BUSY after the engine's timeout."""
        kv = self._live("Engine.send")
        if not isinstance(data, (bytes, bytearray)):
            raise ValueError("gshmem.kv.send: data must be bytes, not %s" % type(data).__name__)
        if not (isinstance(peer, int) and peer >= PEER_REMOTE):
            check_pe("send", peer)
        _check(kv_lib().gshmem_kv_msg_send(kv, peer, bytes(data), len(data)))

    def _harvest(self, fn, call, entry, limit):
        """call(kv, array, limit, &n) into an array of limit entries."""
        kv = self._live("Engine." + fn)
        limit = int(limit)
        if limit < 1:
            raise ValueError("gshmem.kv.Engine.%s: limit %d is not at least 1" % (fn, limit))
        arr = (entry * limit)()
        n = ctypes.c_size_t(0)
        _check(call(kv, arr, limit, ctypes.byref(n)))
        return arr, n

    def recv(self, limit=64):
        """The messages waiting, at most limit, oldest first: [Message]
        (never waits)."""
        arr, n = self._harvest("recv", kv_lib().gshmem_kv_msg_recv, _Msg, limit)
        return [Message(arr[i].peer, arr[i].pe, arr[i].engine,
                        bytes(arr[i].data[:arr[i].len])) for i in range(n.value)]

    def remove_peer(self, peer):
        """Ends its requests in progress (failed), closes it."""
        _check(kv_lib().gshmem_kv_peer_remove(self._live("Engine.remove_peer"), int(peer)))

    def _xfer(self, fn, layout, pe, *args):
        kv = self._live(fn)
        if not (isinstance(pe, int) and pe >= PEER_REMOTE):
            check_pe(fn, pe)
        x, keep = self._desc(fn, layout, pe, *args)
        h = ctypes.c_uint64(0)
        call = kv_lib().gshmem_kv_read if fn == "read" else kv_lib().gshmem_kv_write
        _check(call(kv, ctypes.byref(x), ctypes.byref(h)))
        del keep
        return Request(self, h.value)

    def read(self, layout, pe, local_blocks, remote_blocks=None, layers=None, regions=None,
             offset=0, length=0, signal=None, signal_value=1, signal_op="add"):
        """Pull PE pe's remote_blocks (default: the same ids) into this PE's
        local_blocks, of layers (an int, a range; default all) and regions
        (indices; default all), bytes [offset, offset + length) of each block
        (length 0: to its end).  signal: a one-word int64 tensor on the heap,
        set to / incremented by signal_value at pe once the data is here."""
        return self._xfer("read", layout, pe, local_blocks, remote_blocks, layers, regions,
                          offset, length, signal, signal_value, signal_op)

    def write(self, layout, pe, local_blocks, remote_blocks=None, layers=None, regions=None,
              offset=0, length=0, signal=None, signal_value=1, signal_op="add"):
        """Push this PE's local_blocks into PE pe's remote_blocks; the signal
        at pe follows the data."""
        return self._xfer("write", layout, pe, local_blocks, remote_blocks, layers, regions,
                          offset, length, signal, signal_value, signal_op)

    def poll(self, limit=64):
        """Completes what is in flight, then [(Request, "done" | "canceled" |
        "failed" (a storage tier's I/O, a peer outside the job that failed))]
        of at most limit requests that ended, oldest first."""
        arr, n = self._harvest("poll", kv_lib().gshmem_kv_poll, _Completion, limit)
        return [(Request(self, arr[i].req), "canceled" if arr[i].status == ERR_CANCELED
                 else "failed" if arr[i].status < 0 else "done") for i in range(n.value)]


class FileTier:
    """A file of slots that a layout's blocks are stored to and loaded from
    (gshmem_kv.h, "Storage tier"): slot k holds one block, the slice of
    every layer and region of the transfer.  store and load take the
    arguments of Engine.write and read, with the file's slots in place of
    the peer's blocks, and return a Request that the file's I/O thread
    ends (wait raises KVError when the I/O failed).  Local to this PE."""

    def __init__(self, engine, path, slot_bytes, size=0, write=True, create=True,
                 direct=False, queue_depth=0):
        if not isinstance(engine, Engine):
            raise ValueError("gshmem.kv.FileTier: engine must be a gshmem.kv.Engine")
        kv = engine._live("FileTier")
        flags = ((FILE_WRITE if write else 0) | (FILE_CREATE if create and write else 0) |
                 (FILE_DIRECT if direct else 0))
        o = _FileOpts(flags, int(slot_bytes), int(size), int(queue_depth))
        f = ctypes.c_void_p()
        _check(kv_lib().gshmem_kv_file_open(kv, os.fsencode(path), ctypes.byref(o),
                                            ctypes.byref(f)))
        self.engine, self.path, self._f = engine, path, f.value

    def _live(self, fn):
        if not self._f:
            raise ValueError("gshmem.kv.FileTier.%s: the file was closed" % fn)
        return self.engine._live("FileTier." + fn), self._f

    @property
    def io_engine(self):
        """"io_uring" or "pread/pwrite"."""
        kv, f = self._live("io_engine")
        name = kv_lib().gshmem_kv_file_engine(kv, f)
        if name is None:
            _check(ERR_HANDLE)
        return name.decode()

    def _io(self, fn, layout, local_blocks, slots, layers, regions, offset, length):
        kv, f = self._live(fn)
        x, keep = self.engine._desc("FileTier." + fn, layout, 0, local_blocks, slots, layers,
                                    regions, offset, length, None, 0, "add")
        h = ctypes.c_uint64(0)
        call = kv_lib().gshmem_kv_file_store if fn == "store" else kv_lib().gshmem_kv_file_load
        _check(call(kv, f, ctypes.byref(x), ctypes.byref(h)))
        del keep
        return Request(self.engine, h.value)

    def store(self, layout, local_blocks, slots=None, layers=None, regions=None, offset=0,
              length=0):
        """This PE's local_blocks into the file's slots (default: the same ids)."""
        return self._io("store", layout, local_blocks, slots, layers, regions, offset, length)

    def load(self, layout, local_blocks, slots=None, layers=None, regions=None, offset=0,
             length=0):
        """The file's slots into local_blocks; the same layers, regions and
        slice length as the store that wrote them."""
        return self._io("load", layout, local_blocks, slots, layers, regions, offset, length)

    def close(self):
        kv, f = self._live("close")
        _check(kv_lib().gshmem_kv_file_close(kv, f))
        self._f = None


def _keys(fn, keys):
    """Keys as one bytes object of 16 bytes each: each key a bytes-like of
    16 bytes or an int in [0, 2**128) (little-endian)."""
    if isinstance(keys, (bytes, bytearray, int)):
        keys = [keys]
    out = []
    for i, k in enumerate(keys):
        if isinstance(k, int) and not isinstance(k, bool):
            if not 0 <= k < 1 << 128:
                raise ValueError("gshmem.kv.%s: keys[%d] %d is not in [0, 2**128)" % (fn, i, k))
            k = k.to_bytes(16, "little")
        elif isinstance(k, (bytes, bytearray, memoryview)):
            k = bytes(k)
            if len(k) != 16:
                raise ValueError("gshmem.kv.%s: keys[%d] is %d bytes, not 16" % (fn, i, len(k)))
        else:
            raise ValueError("gshmem.kv.%s: keys[%d] must be 16 bytes or an int, not %s" %
                             (fn, i, type(k).__name__))
        out.append(k)
    return b"".join(out), len(out)


def chunk_keys(tokens, chunk_size):
    """The keys of a prompt's full chunks of chunk_size tokens, each the
    hash of the whole prefix up to its chunk's end (as LMCache and vLLM's
    prefix cache chain them): equal prefixes give equal keys, so
    BlockStore.contains(chunk_keys(...)) is the prefix hit's length in
    chunks.  16-byte BLAKE2b."""
    import hashlib
    chunk_size = int(chunk_size)
    if chunk_size < 1:
        raise ValueError("gshmem.kv.chunk_keys: chunk_size %d is not at least 1" % chunk_size)
    t = np.ascontiguousarray(np.asarray(tokens.cpu() if hasattr(tokens, "cpu") else tokens),
                             dtype=np.int64)
    keys, prev = [], b""
    for i in range(len(t) // chunk_size):
        prev = hashlib.blake2b(prev + t[i * chunk_size:(i + 1) * chunk_size].tobytes(),
                               digest_size=16).digest()
        keys.append(prev)
    return keys


class BlockStore:
    """KV blocks on local storage under 16-byte keys (gshmem_kv.h, "Block
    store"): put and get take a layout's blocks as Engine.write and read
    do (layers, regions, slice), with one key per block; a capacity in
    entries with LRU eviction; an index beside the data that survives the
    process's death (nothing torn is ever returned: a damaged entry raises
    KVError ERR_CORRUPT and is dropped).  One writer per directory.
    Local to this PE."""

    def __init__(self, engine, path, entry_bytes=0, capacity=0, write=True, create=True,
                 direct=False, sync=False, queue_depth=0):
        if not isinstance(engine, Engine):
            raise ValueError("gshmem.kv.BlockStore: engine must be a gshmem.kv.Engine")
        kv = engine._live("BlockStore")
        flags = ((STORE_WRITE if write else 0) | (STORE_CREATE if create and write else 0) |
                 (STORE_DIRECT if direct else 0) | (STORE_SYNC if sync else 0))
        o = _StoreOpts(flags, int(entry_bytes), int(capacity), int(queue_depth))
        st = ctypes.c_void_p()
        _check(kv_lib().gshmem_kv_store_open(kv, os.fsencode(path), ctypes.byref(o),
                                             ctypes.byref(st)))
        self.engine, self.path, self._st = engine, path, st.value

    def _live(self, fn):
        if not self._st:
            raise ValueError("gshmem.kv.BlockStore.%s: the store was closed" % fn)
        return self.engine._live("BlockStore." + fn), self._st

    def _io(self, fn, keys, layout, local_blocks, layers, regions, offset, length):
        kv, st = self._live(fn)
        kb, n = _keys("BlockStore." + fn, keys)
        x, keep = self.engine._desc("BlockStore." + fn, layout, 0, local_blocks, None, layers,
                                    regions, offset, length, None, 0, "add")
        if x.n != n:
            raise ValueError("gshmem.kv.BlockStore.%s: %d keys for %d blocks" % (fn, n, x.n))
        h = ctypes.c_uint64(0)
        call = kv_lib().gshmem_kv_store_put if fn == "put" else kv_lib().gshmem_kv_store_get
        _check(call(kv, st, kb, ctypes.byref(x), ctypes.byref(h)))
        del keep
        return Request(self.engine, h.value)

    def put(self, keys, layout, local_blocks, layers=None, regions=None, offset=0, length=0):
        """Stores local_blocks[i] under keys[i] (a held key is kept as it is)."""
        return self._io("put", keys, layout, local_blocks, layers, regions, offset, length)

    def get(self, keys, layout, local_blocks, layers=None, regions=None, offset=0, length=0):
        """Loads keys[i] into local_blocks[i]: the layers, regions and slice
        length of the put.  A key not held raises KVError ERR_NOT_FOUND."""
        return self._io("get", keys, layout, local_blocks, layers, regions, offset, length)

    def contains(self, keys):
        """How many of keys, from the first, are held (a prefix hit's length)."""
        kv, st = self._live("contains")
        kb, n = _keys("BlockStore.contains", keys)
        return _check(kv_lib().gshmem_kv_store_contains(kv, st, kb, n, None))

    def present(self, keys):
        """One bool per key: held or not."""
        kv, st = self._live("present")
        kb, n = _keys("BlockStore.present", keys)
        flags = (ctypes.c_ubyte * max(n, 1))()
        _check(kv_lib().gshmem_kv_store_contains(kv, st, kb, n, ctypes.cast(flags,
                                                                            ctypes.c_void_p)))
        return [bool(flags[i]) for i in range(n)]

    def evict(self, keys):
        """Drops the keys held; returns how many."""
        kv, st = self._live("evict")
        kb, n = _keys("BlockStore.evict", keys)
        return _check(kv_lib().gshmem_kv_store_evict(kv, st, kb, n))

    def stats(self):
        kv, st = self._live("stats")
        s = _StoreStats()
        _check(kv_lib().gshmem_kv_store_stats(kv, st, ctypes.byref(s)))
        return {f: getattr(s, f) for f, _ in _StoreStats._fields_}

    def close(self):
        kv, st = self._live("close")
        _check(kv_lib().gshmem_kv_store_close(kv, st))
        self._st = None


def layout_hash(n_layers, regions_per_layer, block_bytes):
    """The compatibility hash two sides' layouts must share."""
    lay = _Layout(int(n_layers), int(regions_per_layer), 1, int(block_bytes), 0, None)
    return kv_lib().gshmem_kv_layout_hash(ctypes.byref(lay))
