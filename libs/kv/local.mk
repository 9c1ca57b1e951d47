# libs/kv: KV-cache transfer between the PEs of a job (include/gshmem_kv.h),
# a library on the public API only (shmem.h, shmemx.h, gshmem.h; never
# src/: scripts/layers.py checks it).  Installed, like libgshmem_moe.
# kv_impl.h says which file holds what.
lib_LTLIBRARIES += libs/kv/libgshmem_kv.la
include_HEADERS += include/gshmem_kv.h
libs_kv_libgshmem_kv_la_SOURCES = libs/kv/kv_impl.h libs/kv/kv_base.c libs/kv/kv.c libs/kv/kv_layout.c \
	libs/kv/kv_xfer.c libs/kv/kv_req.c libs/kv/kv_io.h libs/kv/kv_file.c libs/kv/kv_queue.h libs/kv/kv_queue.c libs/kv/kv_file_queue.c libs/kv/kv_posix.c \
	libs/kv/kv_listen.c libs/kv/kv_crc.h libs/kv/kv_crc.c libs/kv/kv_store.h libs/kv/kv_store.c \
	libs/kv/kv_store_index.c libs/kv/kv_store_io.c libs/kv/kv_mbox.h libs/kv/kv_mbox.c libs/kv/kv_cuda.h libs/kv/kv_cuda.c libs/kv/kv_stage.c libs/kv/kv_gds.c \
	crypto/sha256.h crypto/sha256.c
# crypto/: the listener's MACs, compiled in (hidden), so that the library
# needs nothing of the runtime beyond its public API.
libs_kv_libgshmem_kv_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
libs_kv_libgshmem_kv_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libs_kv_libgshmem_kv_la_LIBADD = libgshmem.la -lpthread -ldl
# The storage tier's io_uring engine, where liburing is there (configure.ac).
if HAVE_URING
libs_kv_libgshmem_kv_la_SOURCES += libs/kv/kv_uring.c libs/kv/kv_uring_fix.h libs/kv/kv_uring_fix.c
libs_kv_libgshmem_kv_la_CFLAGS += $(URING_CFLAGS)
libs_kv_libgshmem_kv_la_LIBADD += $(URING_LIBS)
endif
# Peers outside the job go through UCX; without it their calls say so.
if HAVE_UCX
libs_kv_libgshmem_kv_la_SOURCES += libs/kv/kv_net.c libs/kv/kv_direct.h libs/kv/kv_direct.c \
	libs/kv/kv_verbs.h
libs_kv_libgshmem_kv_la_CFLAGS += $(UCX_CFLAGS)
libs_kv_libgshmem_kv_la_LIBADD += $(UCX_LIBS)
# ... and over RDMA verbs where GSHMEM_KV_VERBS says (with librdmacm).
if HAVE_RDMACM
libs_kv_libgshmem_kv_la_SOURCES += libs/kv/kv_verbs.c
libs_kv_libgshmem_kv_la_CFLAGS += $(IBVERBS_CFLAGS) $(RDMACM_CFLAGS)
libs_kv_libgshmem_kv_la_LIBADD += $(IBVERBS_LIBS) $(RDMACM_LIBS)
else
libs_kv_libgshmem_kv_la_SOURCES += libs/kv/kv_verbs_none.c
endif
else
libs_kv_libgshmem_kv_la_SOURCES += libs/kv/kv_net_none.c
endif
libs_kv_libgshmem_kv_la_LDFLAGS = -version-info $(GSHMEM_LT_VERSION) -no-undefined

# Built by make so it keeps compiling; perftest/regress.sh runs it (kv_read).
noinst_PROGRAMS += perftest/kv_bench
perftest_kv_bench_SOURCES = perftest/kv_bench.c perftest/bench.h perftest/kv_common.h
perftest_kv_bench_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
# Between two jobs (kv_compare.sh runs it beside NIXL's kv_nixl.py).
noinst_PROGRAMS += perftest/kv_xjob
perftest_kv_xjob_SOURCES = perftest/kv_xjob.c perftest/bench.h perftest/kv_common.h
perftest_kv_xjob_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
# The storage tier beside fio (kv_fio.sh runs both on the same file).
noinst_PROGRAMS += perftest/kv_fio
perftest_kv_fio_SOURCES = perftest/kv_fio.c perftest/bench.h
perftest_kv_fio_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
EXTRA_DIST += perftest/kv_side.py perftest/kv_nixl.py perftest/kv_mooncake.py perftest/kv_compare.sh perftest/kv_fio.sh \
	perftest/kv_sweep.sh perftest/kv_rdma.sh

# The tests of this library (kept beside it, so this one include brings both).
include $(srcdir)/tests/kv/local.mk
