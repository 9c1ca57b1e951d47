"""gshmem.kv.vllm: GshmemConnector, a vLLM v1 KV connector over gshmem.kv.

Load it out of tree, as LMCache's is:

    --kv-transfer-config '{"kv_connector": "GshmemConnector",
        "kv_connector_module_path": "gshmem.kv.vllm", "kv_role": "kv_both",
        "kv_connector_extra_config": {"secret": "...", "listen": "10.0.0.5:5600",
                                      "store_path": "/nvme/kvstore", "store_capacity": 100000}}'

What it does, in vLLM's own flow (the NixlConnector's, pull mode):

- Disaggregated prefill and decode.  The prefill instance's worker
  listens (extra_config "listen", port + the worker's rank) with the
  secret; a request sent with kv_transfer_params {"do_remote_decode":
  True} keeps its blocks when it finishes (request_finished returns
  True) and hands back {"do_remote_prefill": True, "remote_block_ids",
  "remote_address", "remote_request_id"}.  The decode
  instance, given those params, reports the prompt as loadable
  asynchronously (get_num_new_matched_tokens), pulls the blocks in one
  gshmem_kv_read when they are allocated (start_load_kv), and when the
  pull has ended sends the prefill worker a small message naming the
  request (gshmem_kv_msg_send): that is how the prefill side learns its
  blocks may be freed (get_finished reports the request as sent).  A
  prefill side that never
  hears frees them after a lease (extra_config "lease_s", 480 s as
  NIXL's).  Connections are made once per address and kept.
- Prefix reuse through the block store (extra_config "store_path").  A
  finished request's full chunks of block_size tokens are put under
  chunk_keys (wait_for_save), and a later request whose prompt starts
  with the same chunks loads them instead of computing them
  (get_num_new_matched_tokens, start_load_kv, wait_for_layer_load).  The
  scheduler side knows what was stored from the worker's reports
  (update_connector_output), as vLLM's offloading connector does.
- Failures: a pull that fails (the peer died, a timeout) still ends the
  request as received, and its blocks are reported by
  get_block_ids_with_load_errors, so vLLM recomputes them.

The class subclasses vLLM's KVConnectorBase_V1 where `vllm` can be
imported; otherwise a stand-in with the same constructor, metadata binding
and role (HAVE_VLLM is False, VLLM_IMPORT_ERROR says why), so that the
connector can be driven in vLLM's call order without vLLM, as
tests/python/test_vllm_connector.py does.  Host memory caches only (the
library's layouts are host memory today); one KV cache group.
"""
import enum
import hashlib
import os
import time

from . import BlockStore, Engine, KVError, chunk_keys

try:
    from vllm.distributed.kv_transfer.kv_connector.v1.base import (KVConnectorBase_V1,
                                                                   KVConnectorMetadata,
                                                                   KVConnectorRole)
    HAVE_VLLM, VLLM_IMPORT_ERROR = True, None
except Exception as e:  # vllm missing, or one that does not import with this torch
    HAVE_VLLM, VLLM_IMPORT_ERROR = False, "%s: %s" % (type(e).__name__, e)

    class KVConnectorRole(enum.Enum):
        SCHEDULER = 0
        WORKER = 1

    class KVConnectorMetadata:
        pass

    class KVConnectorBase_V1:
        """The part of vLLM's base class the connector relies on."""

        def __init__(self, vllm_config, role, kv_cache_config=None):
            if getattr(vllm_config, "kv_transfer_config", None) is None:
                raise ValueError("kv_transfer_config must be set for KVConnectorBase_V1")
            self._vllm_config = vllm_config
            self._kv_transfer_config = vllm_config.kv_transfer_config
            self._kv_cache_config = kv_cache_config
            self._connector_metadata = None
            self._role = role

        @property
        def role(self):
            return self._role

        def bind_connector_metadata(self, connector_metadata):
            self._connector_metadata = connector_metadata

        def clear_connector_metadata(self):
            self._connector_metadata = None

        def _get_connector_metadata(self):
            assert self._connector_metadata is not None
            return self._connector_metadata

        def has_connector_metadata(self):
            return self._connector_metadata is not None

READ_PREFIX = b"gshmemkv read "


def _read_msg(remote_request_id):
    """The message a reader sends once it has pulled a request's blocks:
    the prefix and a digest of the id (any length of id fits)."""
    return READ_PREFIX + hashlib.blake2b(remote_request_id.encode(), digest_size=16).digest()


def _block_ids(blocks):
    """The block ids of one KV cache group from what vLLM passes (a
    KVCacheBlocks, a tuple of lists per group, or a list)."""
    if hasattr(blocks, "get_block_ids"):
        blocks = blocks.get_block_ids()
    if isinstance(blocks, tuple):
        if len(blocks) != 1:
            raise ValueError("gshmem.kv.vllm: %d KV cache groups; one is supported" % len(blocks))
        blocks = blocks[0]
    return [int(b) for b in blocks]


class GshmemConnectorMetadata(KVConnectorMetadata):
    """One step's work for the workers (build_connector_meta)."""

    def __init__(self):
        self.pulls = []   # (req_id, local_blocks, remote_blocks, address, remote_req_id)
        self.sends = []   # req_ids whose reader's message the prefill worker waits for
        self.loads = []   # (req_id, local_blocks, keys) from the block store
        self.saves = []   # (req_id, blocks, keys) to the block store


class GshmemConnector(KVConnectorBase_V1):
    def __init__(self, vllm_config, role, kv_cache_config=None):
        super().__init__(vllm_config, role, kv_cache_config)
        extra = dict(getattr(vllm_config.kv_transfer_config, "kv_connector_extra_config", None)
                     or {})
        self._secret = extra.get("secret")
        self._listen = extra.get("listen")
        self._store_path = extra.get("store_path")
        self._store_capacity = int(extra.get("store_capacity", 0))
        self._lease_s = float(extra.get("lease_s", 480))
        self._timeout_s = float(extra.get("timeout_s", 10))
        self._rank = int(extra.get("rank", 0))
        self._block_size = int(vllm_config.cache_config.block_size)
        if self._secret is not None and len(self._secret) < 16:
            raise ValueError("gshmem.kv.vllm: kv_connector_extra_config secret must be at least "
                             "16 characters")
        # Scheduler side.
        self._want_pull = {}     # req_id -> params, until its blocks are allocated
        self._want_load = {}     # req_id -> keys of the store hit
        self._meta = GshmemConnectorMetadata()
        self._stored = set()     # keys the workers reported put
        self._saving = {}        # req_id -> keys, until the worker reports the put
        # Worker side.
        self._engine = None
        self._layout = None
        self._store = None
        self._peers = {}         # address -> peer id
        self._address = None
        self._pulling = {}       # req_id -> (Request, peer, remote_req_id, blocks)
        self._loading = {}       # req_id -> [Request, blocks]
        self._putting = {}       # req_id -> (Request, keys)
        self._watching = {}      # read message -> (req_id, deadline)
        self._heard = {}         # read message -> when, for a request not watched yet
        self._load_errors = set()
        self._layer_names = []

    # ---- scheduler side ----

    def get_num_new_matched_tokens(self, request, num_computed_tokens):
        params = getattr(request, "kv_transfer_params", None) or {}
        n_prompt = len(request.prompt_token_ids)
        if params.get("do_remote_prefill"):
            self._want_pull[request.request_id] = params
            return n_prompt - num_computed_tokens, True
        if self._store_path is None:
            return 0, False
        keys = chunk_keys(request.prompt_token_ids, self._block_size)
        hit = 0
        while hit < len(keys) and keys[hit] in self._stored:
            hit += 1
        # The last prompt token is always computed (it gives the first
        # output): a hit of the whole prompt gives back its last chunk.
        if hit * self._block_size >= n_prompt:
            hit -= 1
        n = hit * self._block_size - num_computed_tokens
        if n <= 0:
            return 0, False
        self._want_load[request.request_id] = keys[:hit]
        return n, False

    def update_state_after_alloc(self, request, blocks, num_external_tokens):
        rid = request.request_id
        if num_external_tokens == 0:
            self._want_pull.pop(rid, None)
            self._want_load.pop(rid, None)
            return
        ids = _block_ids(blocks)
        if rid in self._want_pull:
            p = self._want_pull.pop(rid)
            remote = [int(b) for b in p["remote_block_ids"]]
            self._meta.pulls.append((rid, ids[:len(remote)], remote, p["remote_address"],
                                     p["remote_request_id"]))
        elif rid in self._want_load:
            keys = self._want_load.pop(rid)
            self._meta.loads.append((rid, ids[:len(keys)], keys))

    def build_connector_meta(self, scheduler_output):
        meta, self._meta = self._meta, GshmemConnectorMetadata()
        return meta

    def request_finished(self, request, block_ids):
        rid = request.request_id
        params = getattr(request, "kv_transfer_params", None) or {}
        ids = _block_ids(block_ids)
        if params.get("do_remote_decode"):
            self._meta.sends.append(rid)
            return True, {"do_remote_prefill": True, "do_remote_decode": False,
                          "remote_block_ids": ids, "remote_address": self._listen_address(),
                          "remote_request_id": rid}
        if self._store_path is not None:
            keys = chunk_keys(request.prompt_token_ids, self._block_size)
            if any(k not in self._stored for k in keys):
                self._saving[rid] = keys
                self._meta.saves.append((rid, ids[:len(keys)], keys))
                return True, None
        return False, None

    def update_connector_output(self, connector_output):
        for rid in getattr(connector_output, "finished_sending", None) or ():
            keys = self._saving.pop(rid, None)
            if keys:
                self._stored.update(keys)

    def _listen_address(self):
        if self._listen is None:
            raise ValueError("gshmem.kv.vllm: a prefill side needs kv_connector_extra_config "
                             "listen (host:port its workers listen at)")
        host, port = self._listen.rsplit(":", 1)
        return "%s:%d" % (host, int(port) + self._rank)

    # ---- worker side ----

    def register_kv_caches(self, kv_caches):
        import gshmem
        if not gshmem.is_initialized():
            gshmem.init()  # alone: one PE of its own; peers are reached by connect
        self._layer_names = list(kv_caches)
        self._engine = Engine()
        self._layout = self._engine.register_kv_caches([kv_caches[n] for n in self._layer_names])
        if self._listen is not None:
            if self._secret is None:
                raise ValueError("gshmem.kv.vllm: listen needs a secret in "
                                 "kv_connector_extra_config")
            self._address = self._engine.listen(self._secret, self._listen_address())
        if self._store_path is not None:
            entry = len(self._layer_names) * self._layout.regions_per_layer * \
                self._layout.block_bytes
            os.makedirs(self._store_path, exist_ok=True)
            self._store = BlockStore(self._engine, "%s/rank%d" % (self._store_path, self._rank),
                                     entry_bytes=entry, capacity=self._store_capacity or 4096)

    def _peer(self, address):
        if address not in self._peers:
            if self._secret is None:
                raise ValueError("gshmem.kv.vllm: connecting needs a secret in "
                                 "kv_connector_extra_config")
            self._peers[address] = self._engine.connect(address, self._secret,
                                                        timeout=self._timeout_s)
        return self._peers[address]

    def start_load_kv(self, forward_context, **kwargs):
        meta = self._get_connector_metadata()
        now = time.monotonic()
        for rid in meta.sends:
            self._watching[_read_msg(rid)] = (rid, now + self._lease_s)
        for rid, local, remote, address, remote_rid in meta.pulls:
            try:
                peer = self._peer(address)
                req = self._engine.read(self._layout, peer, local, remote)
                self._pulling[rid] = (req, peer, remote_rid, local)
            except KVError:
                self._load_errors.update(local)
                self._pulling[rid] = (None, None, remote_rid, local)
        for rid, local, keys in meta.loads:
            try:
                self._loading[rid] = [self._store.get(keys, self._layout, local), local]
            except KVError:
                self._load_errors.update(local)

    def wait_for_layer_load(self, layer_name):
        # Store loads are synchronous to the step (get_num_new_matched_tokens
        # said so): they end before the first layer's attention.
        for rid in list(self._loading):
            req, local = self._loading.pop(rid)
            try:
                req.wait(self._timeout_s)
            except KVError:
                self._load_errors.update(local)
            req.free()

    def save_kv_layer(self, layer_name, kv_layer, attn_metadata, **kwargs):
        return  # pull mode: the reader takes the blocks once the request ends

    def wait_for_save(self):
        if not self.has_connector_metadata():
            return
        for rid, blocks, keys in self._get_connector_metadata().saves:
            self._putting[rid] = (self._store.put(keys, self._layout, blocks), keys)

    def get_finished(self, finished_req_ids):
        sending, recving = set(), set()
        for rid in list(self._pulling):
            req, peer, remote_rid, local = self._pulling[rid]
            state = "failed"
            if req is not None:
                try:
                    if not req.test():
                        continue
                    state = "canceled" if getattr(req, "canceled", False) else "done"
                except KVError:
                    state = "failed"
                req.free()
            if state == "done":
                self._tell_reader_done(peer, remote_rid)
            else:
                self._load_errors.update(local)
            del self._pulling[rid]
            recving.add(rid)
        now = time.monotonic()
        # The readers' messages; one may come before this worker watches
        # its request (the reader had the params from the scheduler's
        # output of the same step), so it is kept for a lease.
        while self._engine is not None:
            got = self._engine.recv()
            for m in got:
                if m.data.startswith(READ_PREFIX):
                    self._heard[m.data] = now
            if len(got) < 64:
                break
        for msg, (rid, deadline) in list(self._watching.items()):
            if msg in self._heard or now > deadline:
                self._heard.pop(msg, None)
                del self._watching[msg]
                sending.add(rid)
        for msg, when in list(self._heard.items()):
            if now - when > self._lease_s:
                del self._heard[msg]  # a request this worker never watched
        for rid, (req, keys) in list(self._putting.items()):
            try:
                if not req.test():
                    continue
            except KVError:
                pass  # not stored (a line said why); its keys are never reported
            req.free()
            del self._putting[rid]
            sending.add(rid)
        return sending or None, recving or None

    def _tell_reader_done(self, peer, remote_rid):
        """A message to the prefill worker: its request's blocks are read."""
        try:
            self._engine.send(peer, _read_msg(remote_rid))
        except KVError:
            pass  # the prefill side frees the blocks at its lease's end

    def get_block_ids_with_load_errors(self):
        errors, self._load_errors = self._load_errors, set()
        return errors

    def shutdown(self):
        if self._engine is None:
            return
        if self._store is not None:
            self._store.close()
        self._engine.destroy()
        self._engine = None

    @classmethod
    def get_required_kvcache_layout(cls, vllm_config):
        return "NHD"  # blocks whole per layer and region: vLLM's default layout
