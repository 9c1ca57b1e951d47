"""gshmem.kv on every PE: vLLM-shaped caches ([2, blocks, block_size, heads,
head_size] per layer) on the heap and in private memory, writes and reads
with signals, layer ranges, regions and byte slices, the completion queue,
statistics, and the errors (exceptions; nothing moved); the storage tier
(FileTier) with each I/O engine; the block store (BlockStore, chunk_keys).  Every element of
every cache is compared with what the transfers should have left."""
import os
import shutil
import tempfile

import pytest
import torch

import gshmem
from gshmem.kv import KVError

L, NB, BS, H, D = 3, 10, 4, 2, 8
SHAPE = (2, NB, BS, H, D)
BLOCK_BYTES = BS * H * D * 2  # int16


def me_n():
    return gshmem.my_pe(), gshmem.n_pes()


def pattern(pe, layer, tag):
    g = torch.Generator().manual_seed(pe * 1000 + layer * 10 + tag)
    return torch.randint(-32768, 32767, SHAPE, dtype=torch.int16, generator=g)


def caches_on_heap(tag):
    me = gshmem.my_pe()
    caches = [gshmem.empty(SHAPE, torch.int16) for _ in range(L)]
    for layer, c in enumerate(caches):
        c.copy_(pattern(me, layer, tag))
    return caches


def free_all(ts):
    for t in ts:
        gshmem.free(t)


def test_write_with_signal_then_read_a_slice():
    me, n = me_n()
    nxt, prv = (me + 1) % n, (me - 1) % n
    eng = gshmem.kv.Engine()
    caches = caches_on_heap(1)
    lay = eng.register_kv_caches(caches)
    assert (lay.n_layers, lay.regions_per_layer, lay.n_blocks, lay.block_bytes) == \
        (L, 2, NB, BLOCK_BYTES)
    sig = gshmem.zeros(1, torch.int64)
    gshmem.barrier_all()

    # Push blocks 1..3 into the next PE's 5..7; its signal follows the data.
    req = eng.write(lay, nxt, [1, 2, 3], [5, 6, 7], signal=sig, signal_value=3)
    gshmem.signal_wait_until(sig, "eq", 3)
    for layer in range(L):
        exp = pattern(me, layer, 1)
        exp[:, 5:8] = pattern(prv, layer, 1)[:, 1:4]
        assert torch.equal(caches[layer], exp), layer
    assert req.wait() == "done"
    st = req.stats()
    assert st["bytes"] == L * 2 * 3 * BLOCK_BYTES and st["blocks"] == L * 2 * 3
    assert st["ops"] == L * 2  # 1..3 -> 5..7 is one run per region
    req.free()
    gshmem.barrier_all()

    # Pull bytes [32, 96) of blocks 8, 9 of layers 1, 2, V only, into 0, 2.
    for layer, c in enumerate(caches):
        c.copy_(pattern(me, layer, 2))
    gshmem.barrier_all()
    req = eng.read(lay, nxt, [0, 2], [8, 9], layers=range(1, 3), regions=[1], offset=32,
                   length=64, signal=sig, signal_value=100 + me, signal_op="set")
    while not req.test():
        pass
    assert not req.canceled
    for layer in range(L):
        exp = pattern(me, layer, 2)
        if layer >= 1:
            src = pattern(nxt, layer, 2)
            for d, s in ((0, 8), (2, 9)):
                flat, sflat = exp[1, d].view(-1), src[1, s].view(-1)
                flat[16:48] = sflat[16:48]  # int16: bytes 32..96
        assert torch.equal(caches[layer], exp), layer
    assert req.stats()["ops"] == 2 * 2
    req.free()
    gshmem.signal_wait_until(sig, "eq", 100 + prv)  # the PE before read this PE's
    gshmem.barrier_all()
    eng.destroy()
    free_all(caches + [sig])


def test_private_caches_and_the_queue():
    me, n = me_n()
    eng = gshmem.kv.Engine(progress_thread=False)
    # Even PEs hold their caches in plain tensors, odd PEs on the heap.
    heap = caches_on_heap(3)
    private = [pattern(me, layer, 3) for layer in range(L)]
    mine = private if me % 2 == 0 else heap
    lay = eng.register_kv_caches(mine)
    gshmem.barrier_all()
    peer = me ^ 1
    if n % 2 == 0 and me % 2 == 0:
        reqs = [eng.read(lay, peer, [b], [b + 5]) for b in range(4)]
        got = {}
        while len(got) < 4:
            for r, status in eng.poll(limit=3):
                assert status == "done"
                got[r.handle] = r
        assert sorted(got) == sorted(r.handle for r in reqs)
        assert eng.poll() == []
        for r in reqs:
            r.free()
        for layer in range(L):
            exp = pattern(me, layer, 3)
            exp[:, 0:4] = pattern(peer, layer, 3)[:, 5:9]
            assert torch.equal(mine[layer], exp), layer
    gshmem.barrier_all()
    eng.destroy()
    free_all(heap)


def test_errors_raise_and_move_nothing():
    me, n = me_n()
    nxt = (me + 1) % n
    eng = gshmem.kv.Engine()
    caches = caches_on_heap(4)
    lay = eng.register_kv_caches(caches)
    gshmem.barrier_all()
    with pytest.raises(KVError, match=r"local_blocks\[1\] is 10: this PE's layout") as e:
        eng.read(lay, nxt, [0, NB])
    assert e.value.name == "ERR_RANGE"
    with pytest.raises(KVError, match=r"remote_blocks\[0\] is -1"):
        eng.write(lay, nxt, [0], [-1])
    with pytest.raises(KVError, match="layers 2 to 3"):
        eng.read(lay, nxt, [0], layers=range(2, 4))
    with pytest.raises(KVError, match="region_mask 0x4"):
        eng.read(lay, nxt, [0], regions=[2])
    with pytest.raises(KVError, match="past the block of 128 bytes"):
        eng.read(lay, nxt, [0], offset=100, length=40)
    with pytest.raises(ValueError, match="out of range"):
        eng.read(lay, n, [0])
    with pytest.raises(ValueError, match="not on the symmetric heap"):
        eng.write(lay, nxt, [0], signal=torch.zeros(1, dtype=torch.int64))
    with pytest.raises(ValueError, match="2 local_blocks but 1 remote_blocks"):
        eng.write(lay, nxt, [0, 1], [2])
    with pytest.raises(ValueError, match="not contiguous"):
        eng.register_kv_caches([caches[0].transpose(3, 4)])
    req = eng.write(lay, nxt, [0], [9])
    assert req.wait(timeout=2.0) == "done"
    with pytest.raises(KVError, match="ended already") as e:
        req.cancel()
    assert e.value.name == "ERR_STATE"
    req.free()
    with pytest.raises(KVError, match="not a live request"):
        req.free()
    gshmem.barrier_all()
    for layer in range(L):
        exp = pattern(me, layer, 4)
        exp[:, 9] = pattern((me - 1) % n, layer, 4)[:, 0]
        assert torch.equal(caches[layer], exp), layer
    # Another block size on odd PEs: the hashes differ, the line names both.
    # (Every PE allocates the same: the even ones use the first half.)
    bufs = [gshmem.zeros((2, NB, 2 * BS, H, D), torch.int16) for _ in range(L)]
    shape = (2, NB, BS * (1 + me % 2), H, D)
    other = [b.view(-1)[:2 * NB * shape[2] * H * D].view(shape) for b in bufs]
    lay2 = eng.register_kv_caches(other)
    peer = me ^ 1
    if peer < n:
        want = "has hash 0x%016x, this PE's has 0x%016x" % (
            gshmem.kv.layout_hash(L, 2, BLOCK_BYTES * (1 + peer % 2)),
            gshmem.kv.layout_hash(L, 2, BLOCK_BYTES * (1 + me % 2)))
        with pytest.raises(KVError, match=want) as e:
            eng.read(lay2, peer, [0])
        assert e.value.name == "ERR_MISMATCH"
    eng.deregister(lay2)
    free_all(bufs)
    gshmem.barrier_all()
    eng.destroy()
    with pytest.raises(ValueError, match="destroyed"):
        eng.read(lay, nxt, [0])
    free_all(caches)


def test_peer_outside_the_job_by_blob():
    """The blob path (local_info / add_peer) as a process outside the job
    uses it, here between the PEs of one job (a file or a socket would
    carry the blob; fcollect does here): private caches (not on the heap)
    read and written over UCX, and its errors; then listen / connect with
    a secret (a wrong one refused)."""
    me, n = me_n()
    nxt = (me + 1) % n
    eng = gshmem.kv.Engine()
    caches = [pattern(me, layer, 7) for layer in range(L)]  # private memory
    lay = eng.register_kv_caches(caches)
    try:
        blob = eng.local_info()
    except KVError as e:
        assert e.name == "ERR_UNSUPPORTED"  # a build without UCX says so
        eng.destroy()
        pytest.skip("libgshmem_kv has no UCX: %s" % e)
    cap = 8192
    assert len(blob) <= cap
    mine = gshmem.zeros(cap, torch.uint8)
    mine[:len(blob)] = torch.frombuffer(bytearray(blob), dtype=torch.uint8)
    every = gshmem.zeros(n * cap, torch.uint8)
    gshmem.fcollect(every, mine)
    theirs = bytes(every[nxt * cap:(nxt + 1) * cap].numpy())
    theirs = theirs[:int.from_bytes(theirs[12:16], "little")]  # the blob's own length
    peer = eng.add_peer(theirs)
    assert peer >= gshmem.kv.PEER_REMOTE
    gshmem.barrier_all()
    # Blocks 0..3 of every layer from the next PE into 6..9 here.
    req = eng.read(lay, peer, [6, 7, 8, 9], [0, 1, 2, 3])
    assert req.wait(timeout=10.0) == "done"
    assert req.stats()["ops"] == L * 2  # one run per layer and region
    req.free()
    for layer in range(L):
        exp = pattern(me, layer, 7)
        exp[:, 6:10] = pattern(nxt, layer, 7)[:, 0:4]
        assert torch.equal(caches[layer], exp), layer
    gshmem.barrier_all()  # every PE has checked its caches before the writes below
    # A write with a signal (block 5 into the next PE's 2, which no other
    # transfer touches; word 3 of its engine, add 2), a
    # message to it as a peer outside the job and one as a PE.
    with pytest.raises(ValueError, match="index of one of its signal words"):
        eng.write(lay, peer, [0], signal=mine[:8].view(torch.int64))
    with pytest.raises(KVError, match="0 to 63") as e:
        eng.signal(64)
    req = eng.write(lay, peer, [5], [2], signal=3, signal_value=2, signal_op="add")
    assert req.wait(timeout=10.0) == "done"
    req.free()
    eng.send(peer, b"outside from %d" % me)
    eng.send(nxt, b"inside from %d" % me)
    with pytest.raises(KVError, match="at most 1000") as e:
        eng.send(nxt, b"x" * 1001)
    assert e.value.name == "ERR_RANGE"
    gshmem.barrier_all()
    prev = (me - 1 + n) % n
    assert eng.signal(3) == 2
    for layer in range(L):
        assert torch.equal(caches[layer][:, 2], pattern(prev, layer, 7)[:, 5]), layer
    got = eng.recv()
    assert len(got) == 2, got
    inside = [m for m in got if m.engine == 0]
    outside = [m for m in got if m.engine != 0]
    assert [m.data for m in inside] == [b"inside from %d" % prev]
    assert inside[0].peer == prev and inside[0].pe == prev
    assert [m.data for m in outside] == [b"outside from %d" % prev]
    # This PE added the next PE's blob only: the previous is known when it is the next.
    assert outside[0].peer == (peer if n <= 2 else -1) and outside[0].pe == prev
    assert eng.recv() == []
    with pytest.raises(KVError, match="not a blob of gshmem_kv_local_info") as e:
        eng.add_peer(b"x" * 64)
    assert e.value.name == "ERR_INVALID"
    with pytest.raises(KVError, match="cut short"):
        eng.add_peer(theirs[:-8])
    with pytest.raises(ValueError, match="must be the bytes"):
        eng.add_peer("text")
    # The same through listen / connect, with a secret.
    secret = "kv-test-secret-" + "5" * 16
    where = eng.listen(secret, "127.0.0.1:0")
    with pytest.raises(KVError, match="listens at") as e:
        eng.listen(secret)
    assert e.value.name == "ERR_STATE"
    addr = gshmem.zeros(256, torch.uint8)
    addr[:len(where)] = torch.frombuffer(bytearray(where.encode()), dtype=torch.uint8)
    addrs = gshmem.zeros(n * 256, torch.uint8)
    gshmem.fcollect(addrs, addr)
    theirs_at = bytes(addrs[nxt * 256:(nxt + 1) * 256].numpy()).rstrip(b"\0").decode()
    with pytest.raises(KVError, match="not the same secret") as e:
        eng.connect(theirs_at, "a different secret, long enough")
    assert e.value.name == "ERR_AUTH"
    with pytest.raises(ValueError, match="must be a str"):
        eng.connect(theirs_at, b"bytes")
    peer2 = eng.connect(theirs_at, secret, timeout=10)
    assert peer2 > peer
    req = eng.read(lay, peer2, [0], [4])
    assert req.wait(timeout=10.0) == "done"
    req.free()
    for layer in range(L):
        assert torch.equal(caches[layer][:, 0], pattern(nxt, layer, 7)[:, 4]), layer
    gshmem.barrier_all()  # every PE's read is done before any peer goes
    eng.remove_peer(peer2)
    eng.remove_peer(peer)
    with pytest.raises(KVError, match="was removed") as e:
        eng.read(lay, peer, [0])
    assert e.value.name == "ERR_PEER"
    eng.destroy()
    free_all([mine, every, addr, addrs])


def test_progress_thread(job):
    """The engine's own thread completes requests; it needs
    SHMEM_THREAD_MULTIPLE, which the unique-id start gives and shmem_init
    (the launcher's start) does not."""
    me, n = me_n()
    if job == "launcher":
        with pytest.raises(KVError, match="needs SHMEM_THREAD_MULTIPLE") as e:
            gshmem.kv.Engine(progress_thread=True)
        assert e.value.name == "ERR_INVALID"
        return
    eng = gshmem.kv.Engine(progress_thread=True, max_requests=8)
    caches = caches_on_heap(5)
    lay = eng.register_kv_caches(caches)
    sig = gshmem.zeros(1, torch.int64)
    gshmem.barrier_all()
    reqs = [eng.write(lay, (me + 1) % n, [b], [b + 5], signal=sig) for b in range(5)]
    gshmem.signal_wait_until(sig, "eq", 5)
    for r in reqs:
        assert r.wait(timeout=5.0) == "done"
        r.free()
    for layer in range(L):
        exp = pattern(me, layer, 5)
        exp[:, 5:10] = pattern((me - 1) % n, layer, 5)[:, 0:5]
        assert torch.equal(caches[layer], exp), layer
    gshmem.barrier_all()
    eng.destroy()
    free_all(caches + [sig])


@pytest.mark.parametrize("io", ["auto", "posix"])
def test_file_tier_round_trip(io, monkeypatch):
    """Each PE stores scattered blocks to its own file, clobbers its caches,
    loads the slots into other blocks: every element compared."""
    eng = gshmem.kv.Engine()
    caches = caches_on_heap(7)
    lay = eng.register_kv_caches(caches)
    saved = [c.clone() for c in caches]
    slot = L * 2 * BLOCK_BYTES  # a block of every layer, K and V
    d = tempfile.mkdtemp(prefix="gshmem-kvfile-py-", dir="/var/tmp")
    if io == "posix":
        monkeypatch.setenv("GSHMEM_KV_FILE_ENGINE", "posix")
    else:
        monkeypatch.delenv("GSHMEM_KV_FILE_ENGINE", raising=False)
    ft = gshmem.kv.FileTier(eng, os.path.join(d, "slots"), slot, size=8 * slot)
    assert ft.io_engine in (("pread/pwrite",) if io == "posix" else ("io_uring", "pread/pwrite"))

    req = ft.store(lay, [1, 4, 7], slots=[5, 0, 3])
    assert req.wait() == "done"
    assert req.stats()["bytes"] == 3 * slot
    req.free()
    for c in caches:
        c.zero_()
    req = ft.load(lay, [0, 2, 9], slots=[5, 0, 3])
    assert req.wait() == "done"
    req.free()
    for layer in range(L):
        exp = torch.zeros_like(saved[layer])
        exp[:, [0, 2, 9]] = saved[layer][:, [1, 4, 7]]
        assert torch.equal(caches[layer], exp), layer

    # A slot past the end of the file: an error, no request.
    with pytest.raises(KVError, match="too small"):
        ft.store(lay, [0], slots=[8])
    ft.close()
    with pytest.raises(ValueError, match="closed"):
        ft.load(lay, [0])
    shutil.rmtree(d)
    eng.deregister(lay)
    eng.destroy()
    free_all(caches)


def test_block_store_prefix_reuse():
    """Each PE keeps its request's blocks under chunk keys, finds the prefix
    hit of a longer prompt sharing the prefix, gets the blocks back into
    other blocks (every element compared), and after a reopen still holds
    them; a damaged entry raises ERR_CORRUPT and is no longer held."""
    me, _ = me_n()
    eng = gshmem.kv.Engine()
    caches = caches_on_heap(9)
    lay = eng.register_kv_caches(caches)
    saved = [c.clone() for c in caches]
    d = tempfile.mkdtemp(prefix="gshmem-kvstore-py-", dir="/var/tmp")
    path = os.path.join(d, "pe%d" % me)
    entry = L * 2 * BLOCK_BYTES

    tokens = torch.arange(1000 + me, 1000 + me + 3 * BS)  # three full chunks of BS tokens
    keys = gshmem.kv.chunk_keys(tokens, BS)
    assert len(keys) == 3 and all(len(k) == 16 for k in keys)
    longer = gshmem.kv.chunk_keys(torch.cat([tokens[:2 * BS], tokens[:BS] + 7]), BS)
    assert longer[:2] == keys[:2] and longer[2] != keys[2]

    bs = gshmem.kv.BlockStore(eng, path, entry_bytes=entry, capacity=4)
    req = bs.put(keys, lay, [1, 4, 7])
    assert req.wait() == "done"
    req.free()
    assert bs.contains(longer) == 2
    assert bs.present([keys[2], longer[2], 5]) == [True, False, False]
    for c in caches:
        c.zero_()
    req = bs.get(longer[:2], lay, [0, 2])
    assert req.wait() == "done"
    req.free()
    for layer in range(L):
        exp = torch.zeros_like(saved[layer])
        exp[:, [0, 2]] = saved[layer][:, [1, 4]]
        assert torch.equal(caches[layer], exp), layer
    with pytest.raises(KVError) as e:
        bs.get([longer[2]], lay, [3])
    assert e.value.name == "ERR_NOT_FOUND"
    with pytest.raises(ValueError, match="2 keys for 1 blocks"):
        bs.put(keys[:2], lay, [0])
    with pytest.raises(KVError) as e:  # a second writer
        gshmem.kv.BlockStore(eng, path)
    assert e.value.name == "ERR_BUSY"
    assert bs.evict([keys[0], 12345]) == 1
    assert bs.stats()["entries"] == 2
    bs.close()

    # Reopened (entry size and capacity as made): keys[1:] held.  Then the
    # bytes of keys[1] damaged on disk: its get fails, it is dropped.
    bs = gshmem.kv.BlockStore(eng, path, create=False)
    assert bs.present(keys) == [False, True, True]
    slot = 1  # a new store fills its slots in order: keys[i] went to slot i
    with open(os.path.join(path, "data"), "r+b") as f:
        f.seek(slot * 4096 * ((entry + 4095) // 4096) + 100)
        b = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([b[0] ^ 0xff]))
    req = bs.get([keys[1]], lay, [5])
    with pytest.raises(KVError) as e:
        req.wait()
    assert e.value.name == "ERR_CORRUPT"
    req.free()
    assert bs.present(keys) == [False, False, True]
    bs.close()
    with pytest.raises(ValueError, match="closed"):
        bs.contains(keys)
    shutil.rmtree(d)
    eng.deregister(lay)
    eng.destroy()
    free_all(caches)
