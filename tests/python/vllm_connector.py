"""tests/python/vllm_connector.py ROLE DIR - gshmem.kv.vllm.GshmemConnector
driven in the order vLLM v1 calls it, one process per vLLM instance (each
its own one-PE gshmem job), objects shaped as vLLM's (a Request with
request_id, prompt_token_ids and kv_transfer_params; block ids as a tuple
of one group's list; a connector output with finished_sending).

  prefill  a prefill instance: four requests finish with do_remote_decode
           (their blocks filled from the request), the params go to
           DIR/params.json; requests 0-2 must be reported sent once the
           decode side's messages arrive (before the lease of 8 s), request 3
           (never read) only after the lease.  Then prefix reuse through
           the block store in DIR/store: a finished request's chunks are
           saved, a request sharing two of its three chunks loads them
           (every element compared), a request whose whole prompt is held
           recomputes its last chunk.
  decode   a decode instance: pulls requests 0-2 of DIR/params.json
           (every element compared, no load error); then a request whose
           prefill side is not listening and one with a wrong secret: each
           is still reported received, with its blocks as load errors.
Exit 0 when every check holds; a line per failed check otherwise.
"""
import json
import os
import sys
import time
from types import SimpleNamespace

import gshmem  # first: it finds Debian's torch (_deps.py)
import torch  # noqa: E402
from gshmem.kv.vllm import HAVE_VLLM, VLLM_IMPORT_ERROR, GshmemConnector, KVConnectorRole

LAYERS, NB, BS, H, D = 3, 48, 16, 2, 8  # BS: tokens per block (vLLM's block_size)
SECRET = "vllm-connector-test-secret"
LEASE_S = 8.0
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("vllm_connector: FAIL: %s" % what, flush=True)


def config(**extra):
    extra.setdefault("secret", SECRET)
    extra.setdefault("lease_s", LEASE_S)
    return SimpleNamespace(
        kv_transfer_config=SimpleNamespace(kv_role="kv_both", kv_connector_extra_config=extra),
        cache_config=SimpleNamespace(block_size=BS))


def caches():
    return {"model.layers.%d.self_attn.attn" % i: torch.zeros((2, NB, BS, H, D), dtype=torch.int16)
            for i in range(LAYERS)}


def fill(kv, blocks, tag):
    for i, t in enumerate(kv.values()):
        for j, b in enumerate(blocks):
            g = torch.Generator().manual_seed(tag * 1000 + i * 50 + j)
            t[:, b] = torch.randint(-30000, 30000, (2, BS, H, D), dtype=torch.int16, generator=g)


def same(kv, blocks, ref_kv, ref_blocks):
    return all(torch.equal(t[:, blocks], r[:, ref_blocks]) for t, r in zip(kv.values(),
                                                                           ref_kv.values()))


def step(worker, meta, names):
    """One model step of a worker: bind, load, attention of every layer, save."""
    worker.bind_connector_metadata(meta)
    worker.start_load_kv(None)
    for n in names:
        worker.wait_for_layer_load(n)
        worker.save_kv_layer(n, None, None)
    worker.wait_for_save()
    worker.clear_connector_metadata()


def finished(sched, worker, sending, recving, limit_s, want):
    """get_finished until want(sending, recving) or limit_s passed."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        s, r = worker.get_finished(set())
        sched.update_connector_output(SimpleNamespace(finished_sending=s, finished_recving=r))
        now = time.monotonic()
        for rid in s or ():
            sending[rid] = now
        for rid in r or ():
            recving[rid] = now
        if want():
            return True
        time.sleep(0.01)
    return want()


def prefill(d):
    sched = GshmemConnector(config(listen="127.0.0.1:0", store_path=os.path.join(d, "store")),
                            KVConnectorRole.SCHEDULER)
    # ":0" has no port to offset: the worker's bound address is what goes out.
    worker = GshmemConnector(config(listen="127.0.0.1:0", store_path=os.path.join(d, "store")),
                             KVConnectorRole.WORKER)
    kv = caches()
    worker.register_kv_caches(kv)
    sched._listen = worker._address  # what a real deployment writes in the config
    names = list(kv)
    params = []
    for i in range(4):
        blocks = [1 + 4 * i + k for k in range(4)]
        fill(kv, blocks, i)
        req = SimpleNamespace(request_id="p%d" % i, prompt_token_ids=list(range(3 * BS + 2)),
                              kv_transfer_params={"do_remote_decode": True})
        delay, p = sched.request_finished(req, blocks)
        check(delay and p and p["do_remote_prefill"] and p["remote_block_ids"] == blocks,
              "request_finished keeps the blocks and returns the pull's params")
        params.append(p)
    t0 = time.monotonic()
    step(worker, sched.build_connector_meta(None), names)
    with open(os.path.join(d, "params.tmp"), "w") as f:
        json.dump(params, f)
    os.rename(os.path.join(d, "params.tmp"), os.path.join(d, "params.json"))
    sending, recving = {}, {}
    ok = finished(sched, worker, sending, recving, 60,
                  lambda: all("p%d" % i in sending for i in range(4)))
    check(ok, "every request reported sent (got %s)" % sorted(sending))
    for i in range(3):
        check(sending.get("p%d" % i, 1e9) - t0 < LEASE_S,
              "p%d reported sent by the reader's message, before the lease" % i)
    check(sending.get("p3", 0) - t0 >= LEASE_S, "p3 (never read) reported only at the lease")
    check(not worker._watching and not worker._heard, "nothing left watched or heard")

    # Prefix reuse: save a finished request's three chunks.
    tokens = list(range(1000, 1000 + 3 * BS + 3))
    src = [30, 31, 32, 33]
    fill(kv, src, 9)
    ref = {n: t.clone() for n, t in kv.items()}
    req = SimpleNamespace(request_id="s0", prompt_token_ids=tokens, kv_transfer_params=None)
    delay, p = sched.request_finished(req, src)
    check(delay and p is None, "a finished request's save holds its blocks")
    step(worker, sched.build_connector_meta(None), names)
    sending = {}
    check(finished(sched, worker, sending, recving, 10, lambda: "s0" in sending),
          "the save reported")
    # A request sharing two chunks and more: two chunks load, into other blocks.
    req = SimpleNamespace(request_id="s1", prompt_token_ids=tokens[:2 * BS] + [7] * (BS + 5),
                          kv_transfer_params=None)
    n, is_async = sched.get_num_new_matched_tokens(req, 0)
    check((n, is_async) == (2 * BS, False), "two chunks matched, synchronously (got %s)" %
          ((n, is_async),))
    dst = [40, 41, 42, 43]
    for t in kv.values():
        t[:, dst] = 0
    sched.update_state_after_alloc(req, (dst,), n)
    step(worker, sched.build_connector_meta(None), names)
    check(same(kv, dst[:2], ref, src[:2]), "the two chunks' blocks loaded, every element")
    check(all(int(t[:, dst[2:]].abs().sum()) == 0 for t in kv.values()),
          "nothing loaded past the hit")
    check(worker.get_block_ids_with_load_errors() == set(), "no load error")
    # The whole prompt held (exactly three chunks): the last chunk is recomputed.
    req = SimpleNamespace(request_id="s2", prompt_token_ids=tokens[:3 * BS],
                          kv_transfer_params=None)
    check(sched.get_num_new_matched_tokens(req, 0) == (2 * BS, False),
          "a whole-prompt hit leaves its last chunk to compute")
    check(sched.get_num_new_matched_tokens(req, 2 * BS) == (0, False),
          "nothing more once computed")
    sched.update_state_after_alloc(req, ([],), 0)
    worker.shutdown()


def decode(d):
    path = os.path.join(d, "params.json")
    end = time.monotonic() + 60
    while not os.path.exists(path) and time.monotonic() < end:
        time.sleep(0.02)
    with open(path) as f:
        params = json.load(f)
    sched = GshmemConnector(config(), KVConnectorRole.SCHEDULER)
    worker = GshmemConnector(config(), KVConnectorRole.WORKER)
    kv = caches()
    worker.register_kv_caches(kv)
    names = list(kv)
    ref = caches()
    for i in range(3):
        fill(ref, [1 + 4 * i + k for k in range(4)], i)

    def pull(rid, p, blocks, sched=sched, worker=worker):
        req = SimpleNamespace(request_id=rid, prompt_token_ids=list(range(3 * BS + 2)),
                              kv_transfer_params=p)
        n, is_async = sched.get_num_new_matched_tokens(req, 0)
        check((n, is_async) == (3 * BS + 2, True), "the whole prompt loads asynchronously")
        sched.update_state_after_alloc(req, (blocks,), n)

    for i in range(3):
        pull("d%d" % i, params[i], [20 + 4 * i + k for k in range(4)])
    step(worker, sched.build_connector_meta(None), names)
    sending, recving = {}, {}
    check(finished(sched, worker, sending, recving, 30,
                   lambda: all("d%d" % i in recving for i in range(3))),
          "every pull reported received (got %s)" % sorted(recving))
    check(worker.get_block_ids_with_load_errors() == set(), "no load error")
    for i in range(3):
        check(same(kv, [20 + 4 * i + k for k in range(4)], ref, params[i]["remote_block_ids"]),
              "d%d's blocks equal the prefill side's, every element" % i)

    # Nothing listening there: still received, its blocks are load errors.
    bad = dict(params[0], remote_address="127.0.0.1:1")
    pull("dx", bad, [44, 45, 46, 47])
    step(worker, sched.build_connector_meta(None), names)
    recving = {}
    check(finished(sched, worker, sending, recving, 30, lambda: "dx" in recving),
          "a pull from nowhere reported received")
    check(worker.get_block_ids_with_load_errors() == {44, 45, 46, 47},
          "its blocks reported as load errors")
    worker.shutdown()
    # A wrong secret: refused, the same way.
    sched2 = GshmemConnector(config(secret="not-the-secret-at-all"), KVConnectorRole.SCHEDULER)
    worker2 = GshmemConnector(config(secret="not-the-secret-at-all"), KVConnectorRole.WORKER)
    kv2 = caches()
    worker2.register_kv_caches(kv2)
    req = SimpleNamespace(request_id="dy", prompt_token_ids=list(range(3 * BS + 2)),
                          kv_transfer_params=params[1])
    n, _ = sched2.get_num_new_matched_tokens(req, 0)
    sched2.update_state_after_alloc(req, ([0, 1, 2, 3],), n)
    step(worker2, sched2.build_connector_meta(None), list(kv2))
    recving = {}
    check(finished(sched2, worker2, sending, recving, 30, lambda: "dy" in recving),
          "a pull with a wrong secret reported received")
    check(worker2.get_block_ids_with_load_errors() == {0, 1, 2, 3},
          "its blocks reported as load errors")
    worker2.shutdown()


def main():
    role, d = sys.argv[1], sys.argv[2]
    print("vllm_connector: %s: %s" % (role, "vLLM's KVConnectorBase_V1" if HAVE_VLLM else
                                      "the stand-in base (vllm: %s)" % VLLM_IMPORT_ERROR),
          flush=True)
    if os.environ.get("VLLM_CONNECTOR_WANT_VLLM"):
        import vllm.distributed.kv_transfer.kv_connector.v1.base as base
        check(HAVE_VLLM and issubclass(GshmemConnector, base.KVConnectorBase_V1),
              "GshmemConnector subclasses vLLM's own KVConnectorBase_V1 (%s)" % VLLM_IMPORT_ERROR)
    for m in ("get_num_new_matched_tokens", "update_state_after_alloc", "build_connector_meta",
              "request_finished", "register_kv_caches", "start_load_kv", "wait_for_layer_load",
              "save_kv_layer", "wait_for_save", "get_finished"):
        check(m in GshmemConnector.__dict__, "GshmemConnector defines %s" % m)
    {"prefill": prefill, "decode": decode}[role](d)
    gshmem.finalize()
    print("vllm_connector: %s: %s" % (role, "PASS" if not fails else "%d FAIL" % len(fails)),
          flush=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
