# examples/moe: MoE expert-parallel dispatch and combine on the device API
# (examples/moe/moe.h).  libmoe.la is the library the example program, the
# tests (tests/moe) and the benchmark (perftest/moe_bench) link; moe_data.c
# is also what the MPI baseline (perftest/moe_mpi_baseline.c) links, alone.
# The fp8 quantization and the combine's sums are written to vectorize; the
# flags below let GCC do so at -O2 (both sides of moe_compare.sh use them).
MOE_VEC_CFLAGS = -ftree-vectorize -fvect-cost-model=dynamic

# libmoe.la: the kernels and their host side (moe.h), what the tests of the
# kernels (tests/moe) link.  Hidden symbols: libgshmem_moe.so exports only
# the public API of include/gshmem_moe.h.
noinst_LTLIBRARIES += examples/moe/libmoe.la
examples_moe_libmoe_la_SOURCES = \
	examples/moe/moe.h examples/moe/moe_data.h examples/moe/moe_dev.h \
	examples/moe/moe.c examples/moe/moe_ll.c examples/moe/moe_normal.c \
	examples/moe/moe_data.c
examples_moe_libmoe_la_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS) -fvisibility=hidden

# libgshmem_moe: the installed library (include/gshmem_moe.h) that the
# example, the benchmark and the Python package (python/gshmem/moe.py) use.
lib_LTLIBRARIES += examples/moe/libgshmem_moe.la
include_HEADERS += include/gshmem_moe.h
examples_moe_libgshmem_moe_la_SOURCES = examples/moe/gshmem_moe.c
examples_moe_libgshmem_moe_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
examples_moe_libgshmem_moe_la_LIBADD = examples/moe/libmoe.la libgshmem.la
examples_moe_libgshmem_moe_la_LDFLAGS = -version-info $(GSHMEM_LT_VERSION) -no-undefined

# The measured run both programs share (moe_run.c, over the public API);
# moe_data.c gives them the inputs and the reference.
MOE_RUN_SOURCES = examples/moe/moe_run.h examples/moe/moe_run.c examples/moe/moe_data.c

# The example: `tools/gshmemrun -np 4 examples/moe/moe` prints the shape,
# the time and GB/s of dispatch and combine in both modes, and "verified".
noinst_PROGRAMS += examples/moe/moe
examples_moe_moe_SOURCES = examples/moe/moe_main.c $(MOE_RUN_SOURCES)
examples_moe_moe_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)
examples_moe_moe_LDADD = examples/moe/libgshmem_moe.la libgshmem.la

# Built by make so it keeps compiling; perftest/moe_compare.sh runs it.
noinst_PROGRAMS += perftest/moe_bench
perftest_moe_bench_SOURCES = perftest/moe_bench.c $(MOE_RUN_SOURCES)
perftest_moe_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/examples/moe
perftest_moe_bench_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)
perftest_moe_bench_LDADD = examples/moe/libgshmem_moe.la libgshmem.la

EXTRA_DIST += perftest/moe_mpi_baseline.c perftest/moe_compare.sh

# The tests of this library (kept beside it, so this one include brings both).
include $(srcdir)/tests/moe/local.mk

# The Python example and benchmarks (tests/python/local.mk runs the example).
EXTRA_DIST += examples/python/moe_layer.py perftest/moe_py_bench.py perftest/moe_py_compare.sh
