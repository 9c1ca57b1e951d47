# tests/slurm/: the multi-PE tests under a real one-host Slurm.  srun.tap
# starts munged, slurmctld and slurmd (rig.sh), runs the 2- and 4-PE programs
# of tests/pe under srun --mpi=pmix and --mpi=pmi2 and gshmemrun inside an
# allocation, one TAP result each, and stops the daemons; it skips (one
# "ok 1 # SKIP" line) when not root or Slurm is not installed.
TESTS += tests/slurm/srun.tap
EXTRA_DIST += tests/slurm/srun.tap tests/slurm/rig.sh
TAP_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TAP_LOG_COMPILER = $(SHELL)
