"""tests/python/bad_exit.py - one job (py-bad-exit-np2.sh runs it): PE 1
calls sys.exit(1) while PE 0 waits in signal_wait_until for a signal it
will never send.  atexit's finalize on PE 1 publishes "finalizing", and
PE 0's wait ends the job within seconds with one line (failure
propagation, src/core/liveness.c), not by GSHMEM_WAIT_TIMEOUT."""
import os
import sys
import time

import gshmem
import torch  # noqa: E402

os.environ["GSHMEM_WAIT_TIMEOUT"] = "60"
gshmem.init()
sig = gshmem.zeros(1, torch.uint64 if hasattr(torch, "uint64") else torch.int64)
gshmem.barrier_all()
print("bad_exit: failing at %d" % int(time.time()), file=sys.stderr, flush=True)
if gshmem.my_pe() == 1:
    sys.exit(1)
gshmem.signal_wait_until(sig, "eq", 1)
print("bad_exit: signal_wait_until returned on PE 0", file=sys.stderr)
