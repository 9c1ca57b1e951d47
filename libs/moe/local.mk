# libs/moe: MoE expert-parallel dispatch and combine on the device API
# (libs/moe/moe.h), a library above the runtime on its public API
# (examples/moe keeps the example program only).  libmoe.la is the library
# the example program, the
# tests (tests/moe) and the benchmark (perftest/moe_bench) link; moe_data.c
# is also what the MPI baseline (perftest/moe_mpi_baseline.c) links, alone.
# The fp8 quantization and the combine's sums are written to vectorize; the
# flags below let GCC do so at -O2 (both sides of moe_compare.sh use them).
MOE_VEC_CFLAGS = -ftree-vectorize -fvect-cost-model=dynamic

# libmoe.la: the kernels and their host side (moe.h), what the tests of the
# kernels (tests/moe) link.  Hidden symbols: libgshmem_moe.so exports only
# the public API of include/gshmem_moe.h.
noinst_LTLIBRARIES += libs/moe/libmoe.la
libs_moe_libmoe_la_SOURCES = \
	libs/moe/moe.h libs/moe/moe_types.h libs/moe/moe_data.h libs/moe/moe_dev.h \
	libs/moe/moe.c libs/moe/moe_ll.c libs/moe/moe_normal.c \
	libs/moe/moe_data.c
libs_moe_libmoe_la_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS) -fvisibility=hidden

# libgshmem_moe: the installed library (include/gshmem_moe.h) that the
# example, the benchmark and the Python package (python/gshmem/moe.py) use.
lib_LTLIBRARIES += libs/moe/libgshmem_moe.la
include_HEADERS += include/gshmem_moe.h
libs_moe_libgshmem_moe_la_SOURCES = libs/moe/gshmem_moe.c
libs_moe_libgshmem_moe_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libs_moe_libgshmem_moe_la_LIBADD = libs/moe/libmoe.la libgshmem.la
libs_moe_libgshmem_moe_la_LDFLAGS = -version-info $(GSHMEM_LT_VERSION) -no-undefined

# The measured run both programs share (moe_run.c, over the public API);
# moe_data.c gives them the inputs and the reference.
MOE_RUN_SOURCES = libs/moe/moe_run.h libs/moe/moe_run.c libs/moe/moe_data.c

# Built by make so it keeps compiling; perftest/moe_compare.sh runs it.
noinst_PROGRAMS += perftest/moe_bench
perftest_moe_bench_SOURCES = perftest/moe_bench.c $(MOE_RUN_SOURCES)
perftest_moe_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libs/moe
perftest_moe_bench_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)
perftest_moe_bench_LDADD = libs/moe/libgshmem_moe.la libgshmem.la

# perftest/moe_py_bench.py's expert, moe_bench's own through ctypes
# (perftest/moe_toy_py.c says why).  -rpath makes libtool build it shared.
noinst_LTLIBRARIES += perftest/libmoe_toy.la
perftest_libmoe_toy_la_SOURCES = perftest/moe_toy_py.c $(MOE_RUN_SOURCES)
perftest_libmoe_toy_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libs/moe
perftest_libmoe_toy_la_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)
perftest_libmoe_toy_la_LDFLAGS = -module -avoid-version -rpath $(abs_builddir)/perftest
perftest_libmoe_toy_la_LIBADD = libs/moe/libgshmem_moe.la libgshmem.la

EXTRA_DIST += perftest/moe_mpi_baseline.c perftest/moe_compare.sh

# The tests of this library (kept beside it, so this one include brings both).
include $(srcdir)/tests/moe/local.mk

# The Python example and benchmarks (tests/python/local.mk runs the example).
EXTRA_DIST += examples/python/moe_layer.py perftest/moe_py_bench.py perftest/moe_py_compare.sh \
	perftest/moe_py_profile.py perftest/moe_count.sh

# libgshmem_moe_cuda.so (a CUDA build only): the same public API
# (gshmem_moe.h) with the kernels compiled as CUDA by nvcc (-rdc) and
# device-linked inside the library with libgshmem_device.a, so a program or
# Python loads it like any shared library.  Its copy of the device state
# (device/state.cu, from the archive) registers with libgshmem.so from the
# library's constructor (device/cuda_hooks.h), so a process that loads it
# before gshmem init gets the heap and the kernels on its GPU.  Not libtool:
# libtool does not drive nvcc; a shared object in $(libdir), like
# libgshmem_device.a beside it.  Compiled here, not run (no GPU).
# MOE_CUDA_GENCODE picks other targets than the archive's.  Each object's
# ptxas resource usage (-Xptxas -v: registers per kernel) is kept beside it
# as NAME.o.res; tests/gpu/kit.sh prepare checks it against the launch shape.
if HAVE_CUDA
MOE_CUDA_GENCODE = $(CUDA_GENCODE)
MOE_CU_NAMES = moe moe_ll moe_normal moe_data gshmem_moe
MOE_CU_OBJECTS = $(MOE_CU_NAMES:%=libs/moe/cuda/%.o)
MOE_NVCCFLAGS = -std=c++17 -rdc=true $(MOE_CUDA_GENCODE) -Werror all-warnings \
	-Xcompiler -fPIC,-fvisibility=hidden,-Wall,-Wextra,-Werror -x cu \
	-I$(top_srcdir)/include -I$(top_srcdir)/device -I$(top_srcdir)/libs/moe -I$(top_builddir)
moecudadir = $(libdir)
moecuda_DATA = libs/moe/libgshmem_moe_cuda.so

$(MOE_CU_OBJECTS): libs/moe/cuda/%.o: $(srcdir)/libs/moe/%.c \
		$(wildcard $(srcdir)/libs/moe/*.h $(srcdir)/include/gshmem_moe.h \
		$(srcdir)/device/*.h $(srcdir)/device/gsd/*.h)
	@$(MKDIR_P) $(@D)
	$(GSD_V_NVCC)$(NVCC) $(MOE_NVCCFLAGS) -Xptxas -v -c $< -o $@ 2> $@.res; rc=$$?; \
		grep -Ev '^(ptxas info|    [0-9]+ bytes stack frame)' $@.res >&2; exit $$rc

# The device link (nvcc -dlink) resolves the kernels' calls into the
# archive and makes the library's own CUDA module; the host link (the C++
# compiler: nvcc would device-link again, for its default target) puts the
# objects, that module and the whole archive (its on-stream host routines
# too) into one .so that exports what cuda.map lists.
libs/moe/cuda/dlink.o: $(MOE_CU_OBJECTS) libgshmem_device.a
	$(GSD_V_NVCC)$(NVCC) -dlink $(MOE_CUDA_GENCODE) -Xcompiler -fPIC $(MOE_CU_OBJECTS) \
		libgshmem_device.a -o $@
libs/moe/libgshmem_moe_cuda.so: libs/moe/cuda/dlink.o libgshmem.la \
		$(srcdir)/libs/moe/cuda.map
	$(AM_V_CCLD)$(CXX) -shared -fPIC -o $@ $(MOE_CU_OBJECTS) libs/moe/cuda/dlink.o \
		-Wl,--whole-archive libgshmem_device.a -Wl,--no-whole-archive \
		-Wl,--version-script=$(srcdir)/libs/moe/cuda.map -Wl,-soname,libgshmem_moe_cuda.so \
		-Wl,--no-undefined -L.libs -lgshmem -Wl,-rpath,$(libdir) -L$(CUDA_HOME)/lib64 \
		-Wl,-rpath,$(CUDA_HOME)/lib64 \
		-lcudart -lpthread

CLEANFILES += $(MOE_CU_OBJECTS) $(MOE_CU_OBJECTS:%=%.res) libs/moe/cuda/dlink.o libs/moe/libgshmem_moe_cuda.so
endif
EXTRA_DIST += libs/moe/cuda.map
