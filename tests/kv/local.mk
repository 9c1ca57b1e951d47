# tests/kv: libgshmem_kv (include/gshmem_kv.h) through its public API.
# kv_xfer: every byte each transfer should move, and only those (write,
# read, slices, layer ranges and region masks, private memory, signals,
# the completion queue, statistics), on an engine without and one with a
# progress thread.  kv_bad: each bad input is one line and an error status,
# never a crash or a hang.  Each at 1, 2 and 4 PEs by tests/pe/run-pe
# (load/store), and as a -net.net twin with GSHMEM_DISABLE_P2P=1 (every
# other PE through UCX), listed here by hand as tests/moe does.
# kv_msg: small messages between PEs (all to all, a full mailbox, many
# senders racing for one ring, bad input).
# kv_file: the storage tier moves every byte it should (io_uring, the
# pread/pwrite fallback, O_DIRECT); kv_file_bad: its bad inputs, a file cut
# short; kv_file_full: a full disk (a 1 MiB tmpfs: root, else a skip);
# kv_file_async: requests end on the file's I/O thread (queue, cancel,
# close and destroy with requests in flight).
# kv_file_fixed: io_uring's registered buffers, given back at deregister.
# The tier is local to a PE: at 1 PE.
# exports.sh: libgshmem_kv.so exports only gshmem_kv_ names.
KV_TEST_COMMON = tests/kv/kv_test.h tests/pe/pe_test.h
check_PROGRAMS += tests/kv/kv_xfer tests/kv/kv_bad tests/kv/kv_msg \
	tests/kv/kv_file tests/kv/kv_file_bad tests/kv/kv_file_full tests/kv/kv_file_async \
	tests/kv/kv_file_fixed
tests_kv_kv_xfer_SOURCES = tests/kv/kv_xfer.c $(KV_TEST_COMMON)
tests_kv_kv_xfer_LDADD = libs/kv/libgshmem_kv.la libgshmem.la -lpthread
tests_kv_kv_msg_SOURCES = tests/kv/kv_msg.c $(KV_TEST_COMMON)
tests_kv_kv_msg_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_bad_SOURCES = tests/kv/kv_bad.c $(KV_TEST_COMMON)
tests_kv_kv_bad_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
# no_uring: a command under a seccomp filter that refuses io_uring, for
# kv-file-no-uring.sh (the storage tier's pread/pwrite fallback).
check_PROGRAMS += tests/kv/no_uring
tests_kv_no_uring_SOURCES = tests/kv/no_uring.c
TESTS += tests/kv/kv-file-no-uring.sh
EXTRA_DIST += tests/kv/kv-file-no-uring.sh
# kv-file-fixed-memlock.sh: kv_file_fixed for a user who cannot pin a layout
# (registered buffers refused: every layout plain, the bytes right).
TESTS += tests/kv/kv-file-fixed-memlock.sh
EXTRA_DIST += tests/kv/kv-file-fixed-memlock.sh
# kv-file-gpu.sh: the tier's GPU path (staged through host memory) on a
# stand-in CUDA driver it builds from fake_cuda.c (kv_file_gpu says what).
check_PROGRAMS += tests/kv/kv_file_gpu
tests_kv_kv_file_gpu_SOURCES = tests/kv/kv_file_gpu.c tests/kv/kv_file_test.h $(KV_TEST_COMMON)
tests_kv_kv_file_gpu_LDADD = libs/kv/libgshmem_kv.la libgshmem.la -ldl
# kv_gpu_net: GPU layouts between PEs and with peers outside the job, on the
# same stand-in (kv-file-gpu.sh runs it after kv_file_gpu).
check_PROGRAMS += tests/kv/kv_gpu_net
tests_kv_kv_gpu_net_SOURCES = tests/kv/kv_gpu_net.c $(KV_TEST_COMMON)
tests_kv_kv_gpu_net_CFLAGS = $(AM_CFLAGS) $(UCX_CFLAGS)
tests_kv_kv_gpu_net_LDADD = libs/kv/libgshmem_kv.la libgshmem.la -ldl
TESTS += tests/kv/kv-file-gpu.sh
EXTRA_DIST += tests/kv/kv-file-gpu.sh tests/kv/fake_cuda.c tests/kv/fake_cufile.c
KV_FILE_TEST_COMMON = tests/kv/kv_file_test.h $(KV_TEST_COMMON)
tests_kv_kv_file_SOURCES = tests/kv/kv_file.c $(KV_FILE_TEST_COMMON)
tests_kv_kv_file_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_file_bad_SOURCES = tests/kv/kv_file_bad.c $(KV_FILE_TEST_COMMON)
tests_kv_kv_file_bad_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_file_full_SOURCES = tests/kv/kv_file_full.c $(KV_FILE_TEST_COMMON)
tests_kv_kv_file_full_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_file_async_SOURCES = tests/kv/kv_file_async.c $(KV_FILE_TEST_COMMON)
tests_kv_kv_file_async_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_file_fixed_SOURCES = tests/kv/kv_file_fixed.c $(KV_FILE_TEST_COMMON)
tests_kv_kv_file_fixed_LDADD = libs/kv/libgshmem_kv.la libgshmem.la

TESTS += \
	tests/kv/kv_xfer-np1.pe tests/kv/kv_xfer-np2.pe tests/kv/kv_xfer-np4.pe \
	tests/kv/kv_bad-np1.pe tests/kv/kv_bad-np2.pe tests/kv/kv_bad-np4.pe \
	tests/kv/kv_msg-np1.pe tests/kv/kv_msg-np2.pe tests/kv/kv_msg-np4.pe \
	tests/kv/kv_file-np1.pe tests/kv/kv_file_bad-np1.pe tests/kv/kv_file_full-np1.pe \
	tests/kv/kv_file_async-np1.pe tests/kv/kv_file_fixed-np1.pe \
	tests/kv/exports.sh
EXTRA_DIST += tests/kv/exports.sh

# kv_peers: two jobs, each its own launcher command (kv-two-jobs.sh).
if HAVE_UCX
check_PROGRAMS += tests/kv/kv_peers
tests_kv_kv_peers_SOURCES = tests/kv/kv_peers.c $(KV_TEST_COMMON)
tests_kv_kv_peers_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
TESTS += tests/kv/kv-two-jobs.sh tests/kv/example.sh tests/kv/kv-netns.sh
EXTRA_DIST += tests/kv/kv-two-jobs.sh tests/kv/example.sh tests/kv/kv-netns.sh
# kv-other-user.sh: another local user, without the secret, is refused
# (kv_intrude is what it tries).
check_PROGRAMS += tests/kv/kv_intrude
tests_kv_kv_intrude_SOURCES = tests/kv/kv_intrude.c
tests_kv_kv_intrude_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
TESTS += tests/kv/kv-other-user.sh
EXTRA_DIST += tests/kv/kv-other-user.sh
TESTS += \
	tests/kv/kv_xfer-np1-net.net tests/kv/kv_xfer-np2-net.net tests/kv/kv_xfer-np4-net.net \
	tests/kv/kv_bad-np2-net.net tests/kv/kv_msg-np2-net.net tests/kv/kv_msg-np4-net.net
endif

# The block store: kv_store keeps what it should (LRU, reopen, engines,
# O_DIRECT, sync); kv_store_bad its bad inputs and damaged files;
# kv-store-crash.sh kills a writer with SIGKILL mid-put, again and again,
# and checks what a reopen finds (kv_store_crash is its writer and checker);
# kv_store_async: puts and gets in flight (a pinned entry, close, destroy).
check_PROGRAMS += tests/kv/kv_store tests/kv/kv_store_bad tests/kv/kv_store_crash \
	tests/kv/kv_store_async
KV_STORE_TEST_COMMON = tests/kv/kv_store_test.h $(KV_FILE_TEST_COMMON)
tests_kv_kv_store_SOURCES = tests/kv/kv_store.c $(KV_STORE_TEST_COMMON)
tests_kv_kv_store_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_store_bad_SOURCES = tests/kv/kv_store_bad.c $(KV_STORE_TEST_COMMON)
tests_kv_kv_store_bad_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_store_crash_SOURCES = tests/kv/kv_store_crash.c $(KV_STORE_TEST_COMMON)
tests_kv_kv_store_crash_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
tests_kv_kv_store_async_SOURCES = tests/kv/kv_store_async.c $(KV_STORE_TEST_COMMON)
tests_kv_kv_store_async_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
TESTS += tests/kv/kv_store-np1.pe tests/kv/kv_store_bad-np1.pe tests/kv/kv-store-crash.sh \
	tests/kv/kv_store_async-np1.pe
EXTRA_DIST += tests/kv/kv-store-crash.sh
