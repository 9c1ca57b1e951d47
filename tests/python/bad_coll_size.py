"""tests/python/bad_coll_size.py - one job (py-bad-args-np2.sh runs it): two
PEs call gshmem.fcollect on the same symmetric tensors, PE 0 with 64 floats
from each PE, PE 1 with 32 (a slice: the allocations agree, only the
collective's size differs).  The collective's closing barrier compares the
members' digests (issue 29), so the job must end with the line naming both
sizes instead of returning with half-collected data."""
import sys

import gshmem  # first: it finds Debian's torch for a pyenv python (_deps.py)
import torch  # noqa: E402

gshmem.init()
me, npes = gshmem.my_pe(), gshmem.n_pes()
src = gshmem.empty(64, torch.float32)
dst = gshmem.empty(64 * npes, torch.float32)
n = 64 if me == 0 else 32
gshmem.fcollect(dst[:n * npes], src[:n])
print("bad_coll_size: gshmem.fcollect of different sizes returned on PE %d" % me, file=sys.stderr)
gshmem.free(dst)
gshmem.free(src)
gshmem.finalize()
