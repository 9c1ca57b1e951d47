"""tests/python/after_finalize.py - one job of 2 PEs (py-after-finalize-np2.sh
runs it): tensors and arrays over the symmetric heap that the program still
holds at gshmem.finalize() stay readable and writable after it, with the
values they had (the heap is kept mapped for them: gshmemx_heap_hold), even
one from an allocation freed before; every gshmem routine refuses them;
gshmem.init() works again with a fresh heap; and the kept heap is unmapped
once the last of them is dropped.  Exits 0 when all of that holds, else 1
with a line saying what did not."""
import ctypes
import gc
import sys

import gshmem  # first: it finds Debian's torch for a pyenv python (_deps.py)
import torch  # noqa: E402
from gshmem import _lib  # noqa: E402

failed = []


def check(ok, what):
    if not ok:
        failed.append(what)
        print("after_finalize: PE %s: FAIL: %s" % (me, what), file=sys.stderr)


def mapped(addr):
    """Is addr in one of this process's mappings?"""
    with open("/proc/self/maps") as f:
        for line in f:
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            if lo <= addr < hi:
                return True
    return False


gshmem.init()
me, npes = gshmem.my_pe(), gshmem.n_pes()
peer = (me + 1) % npes
a = gshmem.zeros(1024, torch.int64)
src = torch.arange(1024, dtype=torch.int64) + 1000 * me
gshmem.put(a, src, peer)  # a on PE peer gets PE me's pattern
gshmem.barrier_all()
arr = gshmem.array(16, "int32")
arr[:] = 7 + me
freed = gshmem.zeros(8, torch.int64)
freed_view = freed[2:6]
freed_view.fill_(5)
gshmem.free(freed)
view = a[100:110]  # a view shares the allocation: it alone would keep it
a_addr = a.data_ptr()
gshmem.finalize()

# The values survive finalize, and the memory takes writes.
want = torch.arange(1024, dtype=torch.int64) + 1000 * ((me - 1) % npes)
check(torch.equal(a, want), "a lost its values at finalize: a[:4] = %s" % a[:4].tolist())
check(int(arr.sum()) == 16 * (7 + me), "the array reads %s" % arr[:4].tolist())
check(freed_view.tolist() == [5, 5, 5, 5], "the freed tensor's view reads %s" % freed_view.tolist())
a[:] = 3
check(int(view.sum()) == 30, "a write to a is not seen through its view (sum %d)" % int(view.sum()))

# No routine takes them once finalized.
try:
    gshmem.put(a, src, peer)
    check(False, "gshmem.put took a tensor after finalize")
except gshmem.GshmemError as e:
    check("not initialized" in str(e), "gshmem.put after finalize said: %s" % e)

# A hold handle that is not one is refused with a line, never followed.
check(_lib.lib.gshmemx_heap_release(ctypes.c_void_p(0x1234)) == 1,
      "gshmemx_heap_release took a garbage handle")

# Init again: a fresh heap beside the kept one.
gshmem.init()
b = gshmem.zeros(1024, torch.int64)
gshmem.put(b, src, peer)
gshmem.barrier_all()
check(torch.equal(b, want), "the second heap reads b[:4] = %s" % b[:4].tolist())
check(torch.equal(a, torch.full((1024,), 3, dtype=torch.int64)), "the second init touched a")
b_addr = b.data_ptr()
check(mapped(a_addr) and b_addr != a_addr, "the second heap is not beside the kept one "
      "(a at 0x%x, b at 0x%x)" % (a_addr, b_addr))

# Dropping the last view of the first heap unmaps it.
del a, view, arr, freed_view, freed
gc.collect()
check(not mapped(a_addr), "the kept heap is still mapped at 0x%x after its views were "
      "dropped" % a_addr)
gshmem.free(b)
del b
gc.collect()
gshmem.finalize()
# Nothing viewed the second heap at its finalize: it is gone at once.
check(not mapped(b_addr), "the second heap is still mapped at 0x%x after the last finalize" %
      b_addr)
print("after_finalize: PE %d: %s" % (me, "FAIL" if failed else "ok"), file=sys.stderr)
sys.exit(1 if failed else 0)
