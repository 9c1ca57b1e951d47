# tests/device: the device API (gshmem_device.h) on host lanes.  Each
# program is written once for both backends (dev_test.h): make check builds
# it with the C compiler and runs its kernels as host threads; tests/gpu
# builds the same source with nvcc for a GPU.  tests/pe/run-pe runs
# tests/device/<prog>-np<N>.pe on N PEs, the P2P mode; tests/pe/net.mk adds
# the -net.net twin of each, with GSHMEM_DISABLE_P2P=1: every other PE is
# then reached through the proxy channels (and UCX).  bad_* programs must
# fail with the line of their /* EXPECT: <regex> */ comment.

dev_test_deps = tests/device/dev_test.h tests/pe/pe_test.h

check_PROGRAMS += \
	tests/device/lanes tests/device/rma tests/device/signal tests/device/amo \
	tests/device/order tests/device/wait tests/device/coll tests/device/mem \
	tests/device/ring tests/device/ring_tiny tests/device/proxy_strided \
	tests/device/teams_live tests/device/hostrma tests/device/thread_launch \
	tests/device/bad_hostrma_past \
	tests/device/barrier3_order tests/device/copy_align tests/device/float16 \
	tests/device/reducescatter tests/device/stream \
	tests/device/bad_pe tests/device/bad_addr tests/device/bad_sig_op \
	tests/device/bad_chan tests/device/bad_cmp tests/device/bad_timeout \
	tests/device/bad_lane_trap tests/device/bad_global_exit_dev tests/device/bad_fin_dev tests/device/setup tests/device/buffer \
	tests/device/symreg \
	tests/device/team_init tests/device/team_init_full tests/device/culibrary tests/device/bad_culib_twice \
	tests/device/bad_cumodule_fini tests/device/bad_dmalloc_asym tests/device/bad_dfree_asym \
	tests/device/bad_dmalloc_mixed tests/device/exit_request tests/device/bad_watch_trap \
	tests/device/capture_watch tests/device/amo_float tests/device/flush tests/device/team_nv \
	tests/device/hostlib tests/device/region tests/device/kv_heap

tests_device_lanes_SOURCES = tests/device/lanes.c $(dev_test_deps)
tests_device_lanes_LDADD = libgshmem.la
tests_device_rma_SOURCES = tests/device/rma.c $(dev_test_deps)
tests_device_rma_LDADD = libgshmem.la
tests_device_signal_SOURCES = tests/device/signal.c $(dev_test_deps)
tests_device_signal_LDADD = libgshmem.la
tests_device_amo_SOURCES = tests/device/amo.c $(dev_test_deps)
tests_device_amo_LDADD = libgshmem.la
tests_device_order_SOURCES = tests/device/order.c $(dev_test_deps)
tests_device_order_LDADD = libgshmem.la
tests_device_wait_SOURCES = tests/device/wait.c $(dev_test_deps)
tests_device_wait_LDADD = libgshmem.la
tests_device_coll_SOURCES = tests/device/coll.c $(dev_test_deps)
tests_device_coll_LDADD = libgshmem.la
# Every *_on_stream family, called from the host (gsd/stream.h).
tests_device_stream_SOURCES = tests/device/stream.c $(dev_test_deps)
tests_device_stream_LDADD = libgshmem.la
# Reduce-scatter: every operator on every type, each form, against a reference.
tests_device_reducescatter_SOURCES = tests/device/reducescatter.c $(dev_test_deps)
tests_device_reducescatter_LDADD = libgshmem.la
tests_device_mem_SOURCES = tests/device/mem.c $(dev_test_deps)
tests_device_mem_LDADD = libgshmem.la
# Teams split and destroyed by a second host thread while a kernel runs
# collectives on TEAM_WORLD (issue 17: slot-by-slot team publication).
tests_device_teams_live_SOURCES = tests/device/teams_live.c $(dev_test_deps)
tests_device_teams_live_LDADD = libgshmem.la -lpthread
# libgshmem_kv with its layouts on the device heap (the GPU path between PEs).
tests_device_kv_heap_SOURCES = tests/device/kv_heap.c $(dev_test_deps)
tests_device_kv_heap_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
# The host API (put, get, p, g, fetch-add, gshmem_ptr) on device-heap memory.
tests_device_hostrma_SOURCES = tests/device/hostrma.c $(dev_test_deps)
tests_device_hostrma_LDADD = libgshmem.la
# A kernel launched from a second pthread (on a GPU: the PE's context bound there).
tests_device_thread_launch_SOURCES = tests/device/thread_launch.c $(dev_test_deps)
tests_device_thread_launch_LDADD = libgshmem.la -lpthread
tests_device_proxy_strided_SOURCES = tests/device/proxy_strided.c $(dev_test_deps)
tests_device_proxy_strided_LDADD = libgshmem.la
tests_device_ring_SOURCES = tests/device/ring.c $(dev_test_deps)
tests_device_ring_LDADD = libgshmem.la
# The same stress through a 16-descriptor ring (GSHMEM_PROXY_RING=16, set by
# the program itself): every reservation wraps and waits for credit.
tests_device_ring_tiny_SOURCES = tests/device/ring.c $(dev_test_deps)
tests_device_ring_tiny_CPPFLAGS = $(AM_CPPFLAGS) -DRING_TINY
tests_device_ring_tiny_LDADD = libgshmem.la
# Barriers that must order data across 3 and 4 PEs (issue 17, #8).
tests_device_barrier3_order_SOURCES = tests/device/barrier3_order.c $(dev_test_deps)
tests_device_barrier3_order_LDADD = libgshmem.la
# The bfloat16 and half collectives, reductions against a float reference.
tests_device_float16_SOURCES = tests/device/float16.c $(dev_test_deps)
tests_device_float16_LDADD = libgshmem.la
# The device copy at every dest/source alignment and length (issue 17).
tests_device_copy_align_SOURCES = tests/device/copy_align.c $(dev_test_deps)
tests_device_copy_align_LDADD = libgshmem.la

# NVSHMEM's setup and query names, the warpgroup barrier, double2 maxloc (issue 18).
# On-stream calls captured in the global mode while the watcher runs (issue 30).
tests_device_capture_watch_SOURCES = tests/device/capture_watch.c
tests_device_capture_watch_LDADD = libgshmem.la
# Only the GPU watcher can end the job: a trap on a stream nobody waits for (issue 30).
tests_device_bad_watch_trap_SOURCES = tests/device/bad_watch_trap.c
tests_device_bad_watch_trap_LDADD = libgshmem.la -lpthread
# gshmemi_exit_requested: the status device code's global exit asked for (issue 30).
tests_device_exit_request_SOURCES = tests/device/exit_request.c $(dev_test_deps)
tests_device_exit_request_LDADD = libgshmem.la
# NVSHMEM 3.8's float, double and half atomics (issue 31).
tests_device_amo_float_SOURCES = tests/device/amo_float.c $(dev_test_deps)
tests_device_amo_float_LDADD = libgshmem.la
# gshmemx_flush (+ _warp, _block, _on_stream), gshmemx_signal_counted_reset (issue 31).
tests_device_flush_SOURCES = tests/device/flush.c $(dev_test_deps)
tests_device_flush_LDADD = libgshmem.la
# gshmem_team_split_strided, _split_2d, _get_config, _destroy on device ids (issue 31).
tests_device_team_nv_SOURCES = tests/device/team_nv.c $(dev_test_deps)
tests_device_team_nv_LDADD = libgshmem.la
# gshmemx_hostlib_init_attr / _finalize, gshmemx_set_attr_mpi_comm_args's attr (issue 31).
tests_device_hostlib_SOURCES = tests/device/hostlib.c $(dev_test_deps)
tests_device_hostlib_LDADD = libgshmem.la
# gshmemx_region_start/_stop (+ _block) and _is_active (issue 31).
tests_device_region_SOURCES = tests/device/region.c $(dev_test_deps)
tests_device_region_LDADD = libgshmem.la
tests_device_setup_SOURCES = tests/device/setup.c $(dev_test_deps)
tests_device_setup_LDADD = libgshmem.la
# gshmemx_buffer_register: private memory as the local side of RMA (issue 18).
tests_device_buffer_SOURCES = tests/device/buffer.c $(dev_test_deps)
tests_device_buffer_LDADD = libgshmem.la
# gshmemx_buffer_register_symmetric: memfd buffers made symmetric (issue 18).
tests_device_symreg_SOURCES = tests/device/symreg.c $(dev_test_deps)
tests_device_symreg_LDADD = libgshmem.la
# gshmemx_team_init: teams of any PE set from a unique id (issue 18).
tests_device_team_init_SOURCES = tests/device/team_init.c $(dev_test_deps)
tests_device_team_init_LDADD = libgshmem.la
# gshmemx_team_init with no free team slot: an error code, not the job's end.
tests_device_team_init_full_SOURCES = tests/device/team_init_full.c $(dev_test_deps)
tests_device_team_init_full_LDADD = libgshmem.la

tests_device_bad_pe_SOURCES = tests/device/bad_pe.c tests/device/bad_test.h
tests_device_bad_pe_LDADD = libgshmem.la
tests_device_bad_addr_SOURCES = tests/device/bad_addr.c tests/device/bad_test.h
tests_device_bad_addr_LDADD = libgshmem.la
tests_device_bad_sig_op_SOURCES = tests/device/bad_sig_op.c tests/device/bad_test.h
tests_device_bad_sig_op_LDADD = libgshmem.la
tests_device_bad_chan_SOURCES = tests/device/bad_chan.c tests/device/bad_test.h
tests_device_bad_chan_LDADD = libgshmem.la
tests_device_bad_cmp_SOURCES = tests/device/bad_cmp.c tests/device/bad_test.h
tests_device_bad_cmp_LDADD = libgshmem.la
tests_device_bad_hostrma_past_SOURCES = tests/device/bad_hostrma_past.c tests/device/bad_test.h
tests_device_bad_hostrma_past_LDADD = libgshmem.la
tests_device_bad_timeout_SOURCES = tests/device/bad_timeout.c tests/device/bad_test.h
tests_device_bad_timeout_LDADD = libgshmem.la
# Its own main (two lanes per PE), so not bad_test.h.
tests_device_bad_lane_trap_SOURCES = tests/device/bad_lane_trap.c
tests_device_bad_lane_trap_LDADD = libgshmem.la
# gshmem_global_exit from device code ends the job with its status (issue 18).
tests_device_bad_global_exit_dev_SOURCES = tests/device/bad_global_exit_dev.c
tests_device_bad_global_exit_dev_LDADD = libgshmem.la
tests_device_bad_fin_dev_SOURCES = tests/device/bad_fin_dev.c tests/pe/bad_fin.h
tests_device_bad_fin_dev_LDADD = libgshmem.la
# A kernel in a shared library of its own (libculib), initialized with
# gshmemx_culibrary_init; -rpath makes libtool build it shared.
check_LTLIBRARIES += tests/device/libculib.la
tests_device_libculib_la_SOURCES = tests/device/culib_kernel.c tests/device/culib.h
tests_device_libculib_la_LIBADD = libgshmem.la
tests_device_libculib_la_LDFLAGS = -rpath /nowhere -avoid-version
tests_device_culibrary_SOURCES = tests/device/culibrary.c tests/device/culib.h
tests_device_culibrary_LDADD = tests/device/libculib.la libgshmem.la -ldl
tests_device_bad_culib_twice_SOURCES = tests/device/bad_culib_twice.c
tests_device_bad_culib_twice_LDADD = libgshmem.la
tests_device_bad_cumodule_fini_SOURCES = tests/device/bad_cumodule_fini.c
tests_device_bad_cumodule_fini_LDADD = libgshmem.la
# The device heap's allocation calls compared across PEs (host/alloc_call.c).
tests_device_bad_dmalloc_asym_SOURCES = tests/device/bad_dmalloc_asym.c
tests_device_bad_dmalloc_asym_LDADD = libgshmem.la
tests_device_bad_dfree_asym_SOURCES = tests/device/bad_dfree_asym.c
tests_device_bad_dfree_asym_LDADD = libgshmem.la
tests_device_bad_dmalloc_mixed_SOURCES = tests/device/bad_dmalloc_mixed.c
tests_device_bad_dmalloc_mixed_LDADD = libgshmem.la

# 1, 2 and 4 PEs each; tests/pe/net.mk adds the proxy-mode twin of every one.
TESTS += \
	tests/device/lanes-np1.pe tests/device/lanes-np2.pe tests/device/lanes-np4.pe \
	tests/device/rma-np1.pe tests/device/rma-np2.pe tests/device/rma-np4.pe \
	tests/device/signal-np1.pe tests/device/signal-np2.pe tests/device/signal-np4.pe \
	tests/device/amo-np1.pe tests/device/amo-np2.pe tests/device/amo-np4.pe \
	tests/device/amo_float-np1.pe tests/device/amo_float-np2.pe \
	tests/device/flush-np1.pe tests/device/flush-np2.pe \
	tests/device/team_nv-np1.pe tests/device/team_nv-np2.pe \
	tests/device/hostlib-np1.pe tests/device/hostlib-np2.pe \
	tests/device/region-np1.pe tests/device/region-np2.pe \
	tests/device/kv_heap-np1.pe tests/device/kv_heap-np2.pe tests/device/kv_heap-np4.pe \
	tests/device/order-np1.pe tests/device/order-np2.pe tests/device/order-np4.pe \
	tests/device/wait-np1.pe tests/device/wait-np2.pe tests/device/wait-np4.pe \
	tests/device/coll-np1.pe tests/device/coll-np2.pe tests/device/coll-np4.pe \
	tests/device/mem-np1.pe tests/device/mem-np2.pe tests/device/mem-np4.pe \
	tests/device/ring-np1.pe tests/device/ring-np2.pe tests/device/ring-np4.pe \
	tests/device/teams_live-np2.pe tests/device/teams_live-np4.pe \
	tests/device/hostrma-np1.pe tests/device/hostrma-np2.pe \
	tests/device/thread_launch-np1.pe tests/device/thread_launch-np2.pe \
	tests/device/bad_hostrma_past-np1.pe tests/device/bad_hostrma_past-np2.pe \
	tests/device/proxy_strided-np1.pe tests/device/proxy_strided-np2.pe \
	tests/device/barrier3_order-np3.pe tests/device/barrier3_order-np4.pe \
	tests/device/copy_align-np1.pe tests/device/copy_align-np2.pe \
	tests/device/float16-np1.pe tests/device/float16-np2.pe tests/device/float16-np4.pe \
	tests/device/setup-np1.pe tests/device/setup-np2.pe tests/device/setup-np4.pe \
	tests/device/exit_request-np1.pe tests/device/exit_request-np2.pe \
	tests/device/bad_watch_trap-np1.pe tests/device/bad_watch_trap-np2.pe \
	tests/device/capture_watch-np1.pe tests/device/capture_watch-np2.pe \
	tests/device/buffer-np1.pe tests/device/buffer-np2.pe tests/device/buffer-np4.pe \
	tests/device/symreg-np1.pe tests/device/symreg-np2.pe tests/device/symreg-np4.pe \
	tests/device/team_init-np1.pe tests/device/team_init-np2.pe tests/device/team_init-np4.pe \
	tests/device/team_init_full-np1.pe tests/device/team_init_full-np2.pe \
	tests/device/team_init_full-np4.pe \
	tests/device/reducescatter-np1.pe tests/device/reducescatter-np2.pe \
	tests/device/reducescatter-np3.pe tests/device/reducescatter-np4.pe \
	tests/device/stream-np1.pe tests/device/stream-np2.pe tests/device/stream-np4.pe \
	tests/device/bad_pe-np1.pe tests/device/bad_pe-np2.pe \
	tests/device/bad_addr-np1.pe tests/device/bad_addr-np2.pe \
	tests/device/bad_sig_op-np1.pe tests/device/bad_sig_op-np2.pe \
	tests/device/bad_chan-np1.pe tests/device/bad_chan-np2.pe \
	tests/device/bad_cmp-np1.pe tests/device/bad_cmp-np2.pe \
	tests/device/bad_timeout-np1.pe tests/device/bad_timeout-np2.pe \
	tests/device/bad_lane_trap-np1.pe tests/device/bad_lane_trap-np2.pe \
	tests/device/bad_global_exit_dev-np1.pe tests/device/bad_global_exit_dev-np2.pe \
	tests/device/bad_global_exit_dev-np4.pe \
	tests/device/bad_fin_dev-np2.pe tests/device/bad_fin_dev-np4.pe \
	tests/device/culibrary-np1.pe tests/device/culibrary-np2.pe \
	tests/device/bad_culib_twice-np1.pe tests/device/bad_cumodule_fini-np2.pe \
	tests/device/bad_dmalloc_asym-np2.pe tests/device/bad_dmalloc_asym-np4.pe \
	tests/device/bad_dfree_asym-np2.pe tests/device/bad_dmalloc_mixed-np2.pe

# The tiny ring matters only where there is a proxy: the network mode alone.
# (Listed by hand: gen-net-mk.sh makes twins of .pe entries only.)
if HAVE_UCX
TESTS += tests/device/ring_tiny-np2-net.net tests/device/ring_tiny-np4-net.net
endif
