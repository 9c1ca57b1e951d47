# examples/moe: MoE expert-parallel dispatch and combine on the device API
# (examples/moe/moe.h).  libmoe.la is the library the example program, the
# tests (tests/moe) and the benchmark (perftest/moe_bench) link; moe_data.c
# is also what the MPI baseline (perftest/moe_mpi_baseline.c) links, alone.
# The fp8 quantization and the combine's sums are written to vectorize; the
# flags below let GCC do so at -O2 (both sides of moe_compare.sh use them).
MOE_VEC_CFLAGS = -ftree-vectorize -fvect-cost-model=dynamic

noinst_LTLIBRARIES += examples/moe/libmoe.la
examples_moe_libmoe_la_SOURCES = \
	examples/moe/moe.h examples/moe/moe_data.h examples/moe/moe_dev.h examples/moe/moe_run.h \
	examples/moe/moe.c examples/moe/moe_ll.c examples/moe/moe_normal.c \
	examples/moe/moe_data.c examples/moe/moe_run.c
examples_moe_libmoe_la_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)

# The example: `tools/gshmemrun -np 4 examples/moe/moe` prints the shape,
# the time and GB/s of dispatch and combine in both modes, and "verified".
noinst_PROGRAMS += examples/moe/moe
examples_moe_moe_SOURCES = examples/moe/moe_main.c
examples_moe_moe_LDADD = examples/moe/libmoe.la libgshmem.la

# Built by make so it keeps compiling; perftest/moe_compare.sh runs it.
noinst_PROGRAMS += perftest/moe_bench
perftest_moe_bench_SOURCES = perftest/moe_bench.c
perftest_moe_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/examples/moe
perftest_moe_bench_LDADD = examples/moe/libmoe.la libgshmem.la

EXTRA_DIST += perftest/moe_mpi_baseline.c perftest/moe_compare.sh

# The tests of this library (kept beside it, so this one include brings both).
include $(srcdir)/tests/moe/local.mk
