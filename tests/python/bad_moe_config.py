"""tests/python/bad_moe_config.py - one job (py-bad-args-np2.sh runs it): PE 0
makes a gshmem.moe.Buffer with hidden 128, PE 1 with 256.  Creation is
collective and compares the configs (libs/moe/gshmem_moe.c), so every PE's
constructor raises with "PE 1 has hidden 256, PE 0 128", and the job ends
(the package's sys.excepthook), instead of the PEs waiting in allocations
that no longer match."""
import gshmem  # first: it finds Debian's torch for a pyenv python (_deps.py)
import gshmem.moe  # noqa: E402

gshmem.init()
me = gshmem.my_pe()
buf = gshmem.moe.Buffer(128 if me == 0 else 256, 2 * gshmem.n_pes(), 1, 4)
print("bad_moe_config: gshmem.moe.Buffer with different hidden sizes returned on PE %d" % me)
gshmem.finalize()
