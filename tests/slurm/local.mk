# tests/slurm/: the multi-PE tests under a real one-host Slurm.  srun.tap
# starts munged, slurmctld and slurmd (rig.sh), runs the 2- and 4-PE programs
# of tests/pe under srun --mpi=pmix and --mpi=pmi2 and gshmemrun inside an
# allocation, one TAP result each, and stops the daemons; it skips (one
# "ok 1 # SKIP" line) when not root or Slurm is not installed.
TESTS += tests/slurm/srun.tap
# boot_allgather: the bootstrap alone (linked to the core library), so srun.tap
# can check allgathers larger than the PMI-2 bootstrap's 480-byte chunks.
check_PROGRAMS += tests/slurm/boot_allgather
tests_slurm_boot_allgather_SOURCES = tests/slurm/boot_allgather.c
tests_slurm_boot_allgather_CPPFLAGS = $(AM_CPPFLAGS) $(GSI_CPPFLAGS)
tests_slurm_boot_allgather_LDADD = libgshmem_core.la
EXTRA_DIST += tests/slurm/srun.tap tests/slurm/rig.sh
