"""tests/python/bad_alloc.py - one job (py-bad-alloc-np2.sh runs it): PE 0
asks gshmem.array for 256 floats, the others for 512.  The allocation calls
are compared across PEs (gshmem_malloc, as shmem_malloc), so the job must
end with "gshmem_malloc: PE n asked for X bytes, this PE for Y" instead of
going on with heaps that have parted."""
import sys

import numpy as np

import gshmem

gshmem.init()
me = gshmem.my_pe()
a = gshmem.array(256 if me == 0 else 512, np.float32)
print("bad_alloc: gshmem.array of different sizes returned on PE %d" % me, file=sys.stderr)
gshmem.free(a)
gshmem.finalize()
