# tests/unit/: Criterion unit tests of the core, one process each (sha256:
# the bootstrap's SHA-256, HMAC and handshake MACs, against the standard
# test vectors; pmi2: the PMI-2 bootstrap against a fake server).
if HAVE_CRITERION
unit_tests = tests/unit/alloc tests/unit/env tests/unit/translate tests/unit/typetable \
	tests/unit/ring tests/unit/sha256 tests/unit/caps_proxy tests/unit/caps_p2p \
	tests/unit/float16 tests/unit/pmi2 tests/unit/topo tests/unit/verbs_window tests/unit/wait_gpu \
	tests/unit/node tests/unit/coll_digest
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
unit_cppflags = $(AM_CPPFLAGS) $(GSI_CPPFLAGS)
unit_cflags = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(PMIX_CFLAGS)
unit_ldadd = libgshmem_core.la $(CRITERION_LIBS)
# verbs_dmabuf: the registration file alone, with the driver and libibverbs faked.
if HAVE_VERBS
check_PROGRAMS += tests/unit/verbs_dmabuf
TESTS += tests/unit/verbs_dmabuf
tests_unit_verbs_dmabuf_SOURCES = tests/unit/verbs_dmabuf.c src/net/verbs/verbs_dmabuf.c
tests_unit_verbs_dmabuf_CPPFLAGS = $(unit_cppflags)
tests_unit_verbs_dmabuf_CFLAGS = $(unit_cflags) $(IBVERBS_CFLAGS)
tests_unit_verbs_dmabuf_LDADD = $(CRITERION_LIBS) -ldl
endif
# verbs_window: the verbs send window's logic against a simulated send queue.
tests_unit_verbs_window_SOURCES = tests/unit/verbs_window.c src/net/verbs/verbs_window.c
tests_unit_verbs_window_CPPFLAGS = $(unit_cppflags)
tests_unit_verbs_window_CFLAGS = $(unit_cflags)
tests_unit_verbs_window_LDADD = $(CRITERION_LIBS)
tests_unit_alloc_SOURCES = tests/unit/alloc.c
tests_unit_alloc_CPPFLAGS = $(unit_cppflags)
tests_unit_alloc_CFLAGS = $(unit_cflags)
tests_unit_alloc_LDADD = $(unit_ldadd)
tests_unit_env_SOURCES = tests/unit/env.c
tests_unit_env_CPPFLAGS = $(unit_cppflags)
tests_unit_env_CFLAGS = $(unit_cflags)
tests_unit_env_LDADD = $(unit_ldadd)
tests_unit_translate_SOURCES = tests/unit/translate.c
tests_unit_translate_CPPFLAGS = $(unit_cppflags)
tests_unit_translate_CFLAGS = $(unit_cflags)
tests_unit_translate_LDADD = $(unit_ldadd)
tests_unit_typetable_SOURCES = tests/unit/typetable.c
tests_unit_typetable_CPPFLAGS = $(unit_cppflags)
tests_unit_typetable_CFLAGS = $(unit_cflags)
tests_unit_typetable_LDADD = $(unit_ldadd)
# topo: the placement rules on the synthetic nodes of tests/topo/.
tests_unit_topo_SOURCES = tests/unit/topo.c
tests_unit_topo_CPPFLAGS = $(unit_cppflags) $(HWLOC_CFLAGS)
tests_unit_topo_CFLAGS = $(unit_cflags)
tests_unit_topo_LDADD = $(unit_ldadd) $(HWLOC_LIBS)
# wait_gpu: host waits on GPU memory (a region the CPU only copies) are refused.
tests_unit_wait_gpu_SOURCES = tests/unit/wait_gpu.c
tests_unit_wait_gpu_CPPFLAGS = $(unit_cppflags)
tests_unit_wait_gpu_CFLAGS = $(unit_cflags)
tests_unit_wait_gpu_LDADD = $(unit_ldadd)
# node: the node transport's refusals and its GPU-memory path, with a fake GPU layer.
tests_unit_node_SOURCES = tests/unit/node.c
tests_unit_node_CPPFLAGS = $(unit_cppflags)
tests_unit_node_CFLAGS = $(unit_cflags)
tests_unit_node_LDADD = $(unit_ldadd)
# coll_digest: a collective's argument digest and the line a mismatch prints.
tests_unit_coll_digest_SOURCES = tests/unit/coll_digest.c
tests_unit_coll_digest_CPPFLAGS = $(unit_cppflags)
tests_unit_coll_digest_CFLAGS = $(unit_cflags)
tests_unit_coll_digest_LDADD = $(unit_ldadd)
tests_unit_ring_SOURCES = tests/unit/ring.c
tests_unit_ring_CPPFLAGS = $(unit_cppflags)
tests_unit_ring_CFLAGS = $(unit_cflags)
tests_unit_ring_LDADD = $(unit_ldadd)
# The GPU handle socket (src/gpu/cuda/cuda_ipc.c) is built with the CUDA
# headers but needs no GPU to run.
if HAVE_CUDA
check_PROGRAMS += tests/unit/cuda_ipc
TESTS += tests/unit/cuda_ipc
tests_unit_cuda_ipc_SOURCES = tests/unit/cuda_ipc.c
tests_unit_cuda_ipc_CPPFLAGS = $(unit_cppflags) $(CUDA_CPPFLAGS)
tests_unit_cuda_ipc_CFLAGS = $(unit_cflags)
tests_unit_cuda_ipc_LDADD = $(unit_ldadd)
# cuda_bind: the archive's per-call binding of the PE's context, fake driver.
check_PROGRAMS += tests/unit/cuda_bind
TESTS += tests/unit/cuda_bind
tests_unit_cuda_bind_SOURCES = tests/unit/cuda_bind.c
tests_unit_cuda_bind_CPPFLAGS = $(unit_cppflags) $(CUDA_CPPFLAGS)
tests_unit_cuda_bind_CFLAGS = $(unit_cflags)
tests_unit_cuda_bind_LDADD = $(unit_ldadd)
# cuda_node: the node transport's GPU half (copies, the atomics kernel's
# arguments), fake driver.
check_PROGRAMS += tests/unit/cuda_node
TESTS += tests/unit/cuda_node
tests_unit_cuda_node_SOURCES = tests/unit/cuda_node.c
tests_unit_cuda_node_CPPFLAGS = $(unit_cppflags) $(CUDA_CPPFLAGS)
tests_unit_cuda_node_CFLAGS = $(unit_cflags)
tests_unit_cuda_node_LDADD = $(unit_ldadd)
# cuda_drain: finalize waits for the PE's kernels first, fake driver.
check_PROGRAMS += tests/unit/cuda_drain
TESTS += tests/unit/cuda_drain
tests_unit_cuda_drain_SOURCES = tests/unit/cuda_drain.c
tests_unit_cuda_drain_CPPFLAGS = $(unit_cppflags) $(CUDA_CPPFLAGS)
tests_unit_cuda_drain_CFLAGS = $(unit_cflags)
tests_unit_cuda_drain_LDADD = $(unit_ldadd) -lpthread
# gpu_watch: the GPU watcher's logic (src/gpu/watch_loop.c) with a fake query.
check_PROGRAMS += tests/unit/gpu_watch
TESTS += tests/unit/gpu_watch
tests_unit_gpu_watch_SOURCES = tests/unit/gpu_watch.c
tests_unit_gpu_watch_CPPFLAGS = $(unit_cppflags) $(CUDA_CPPFLAGS)
tests_unit_gpu_watch_CFLAGS = $(unit_cflags)
tests_unit_gpu_watch_LDADD = $(unit_ldadd) -lpthread
endif
tests_unit_sha256_SOURCES = tests/unit/sha256.c
tests_unit_sha256_CPPFLAGS = $(unit_cppflags)
tests_unit_sha256_CFLAGS = $(unit_cflags)
tests_unit_sha256_LDADD = $(unit_ldadd)
tests_unit_pmi2_SOURCES = tests/unit/pmi2.c
tests_unit_pmi2_CPPFLAGS = $(unit_cppflags)
tests_unit_pmi2_CFLAGS = $(unit_cflags)
tests_unit_pmi2_LDADD = $(unit_ldadd) -lpthread
tests_unit_caps_proxy_SOURCES = tests/unit/caps_proxy.c
tests_unit_caps_proxy_CPPFLAGS = $(unit_cppflags)
tests_unit_caps_proxy_CFLAGS = $(unit_cflags)
tests_unit_caps_proxy_LDADD = $(unit_ldadd)
tests_unit_caps_p2p_SOURCES = tests/unit/caps_p2p.c
tests_unit_caps_p2p_CPPFLAGS = $(unit_cppflags)
tests_unit_caps_p2p_CFLAGS = $(unit_cflags)
tests_unit_caps_p2p_LDADD = $(unit_ldadd)
# The host-lane bfloat16 and half conversions (include/gshmem/float16.h).
tests_unit_float16_SOURCES = tests/unit/float16.c
tests_unit_float16_CPPFLAGS = $(unit_cppflags)
tests_unit_float16_CFLAGS = $(unit_cflags)
tests_unit_float16_LDADD = $(unit_ldadd) -lm
endif
