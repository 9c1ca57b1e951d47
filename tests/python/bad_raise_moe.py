"""tests/python/bad_raise_moe.py - one job (py-bad-exit-np2.sh runs it):
PE 0 dispatches through a gshmem.moe.Buffer while PE 1 raises between its
own dispatch's preparation and the call (an error in the model code of a
serving step).  The package's sys.excepthook prints "gshmem: PE 1:
uncaught ValueError: ..." and ends the job, so PE 0 does not wait in its
dispatch for PE 1's tokens (issue 29, first row)."""
import os
import sys
import time

import torch

import gshmem

os.environ["GSHMEM_WAIT_TIMEOUT"] = "60"
gshmem.init()
me, n = gshmem.my_pe(), gshmem.n_pes()
buf = gshmem.moe.Buffer(128, 2 * n, 1, 4)
x = torch.ones((4, 128), dtype=torch.bfloat16)
idx = torch.arange(4, dtype=torch.int64).remainder(2 * n).view(4, 1)
gshmem.barrier_all()
print("bad_raise_moe: failing at %d" % int(time.time()), file=sys.stderr, flush=True)
if me == 1:
    raise ValueError("bad_raise_moe: PE 1 gives up mid-dispatch")
buf.dispatch(x, idx)
print("bad_raise_moe: dispatch returned on PE %d" % me, file=sys.stderr)
