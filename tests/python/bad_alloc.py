"""tests/python/bad_alloc.py - one job (py-bad-args-np2.sh runs it): PE 0
asks gshmem.empty for 256 floats, the others for 512 (a torch tensor, so
the same on host lanes and on a GPU heap).  The allocation calls
are compared across PEs (gshmem_malloc, as shmem_malloc), so the job must
end with "gshmem_malloc: PE n asked for X bytes, this PE for Y" instead of
going on with heaps that have parted."""
import sys

import gshmem  # first: it finds Debian's torch for a pyenv python (_deps.py)
import torch  # noqa: E402

gshmem.init()
me = gshmem.my_pe()
a = gshmem.empty(256 if me == 0 else 512, torch.float32)
print("bad_alloc: gshmem.empty of different sizes returned on PE %d" % me, file=sys.stderr)
gshmem.free(a)
gshmem.finalize()
