"""tests/python/bad_raise.py - one job (py-bad-exit-np2.sh runs it): PE 1
raises while PE 0 waits in barrier_all.  The package's sys.excepthook
prints the traceback, then "gshmem: PE 1: uncaught ValueError: ..." and
ends the job (shmem_global_exit); without it PE 1 went on into atexit's
finalize, and the job ended only by the wait's timeout."""
import os
import sys
import time

import gshmem

os.environ["GSHMEM_WAIT_TIMEOUT"] = "60"
gshmem.init()
gshmem.barrier_all()
print("bad_raise: failing at %d" % int(time.time()), file=sys.stderr, flush=True)
if gshmem.my_pe() == 1:
    raise ValueError("bad_raise: PE 1 gives up")
gshmem.barrier_all()
print("bad_raise: barrier_all returned on PE %d" % gshmem.my_pe(), file=sys.stderr)
