# tests/pe: multi-PE test programs, run under mpirun by tests/pe/run-pe.
# The test tests/pe/<prog>-np<N>.pe runs tests/pe/<prog> on N PEs (the .pe
# file is an empty stamp made by the top Makefile).  Each program prints
# one line per failed check and exits 0 (pass), 1 (fail) or 77 (skip).
# Programs named bad_* must fail: run-pe passes them when they exit nonzero
# with the line given by the /* EXPECT: <regex> */ comment of their source.
# The typed checks are generated from include/gshmem/typetable.h.

check_PROGRAMS += \
	tests/pe/setup tests/pe/mem tests/pe/static tests/pe/rma tests/pe/amo tests/pe/amo_contend \
	tests/pe/signal tests/pe/p2psync tests/pe/order tests/pe/lock tests/pe/ctx \
	tests/pe/threads tests/pe/barrier tests/pe/generic \
	tests/pe/bad_pe_range tests/pe/bad_not_symmetric tests/pe/bad_before_init \
	tests/pe/bad_finalize tests/pe/bad_env tests/pe/bad_boot_pmi2 tests/pe/bad_free tests/pe/bad_wait_cmp \
	tests/pe/bad_sig_op tests/pe/bad_global_exit tests/pe/bad_relro tests/pe/bad_sync_area \
	tests/pe/test_any \
	tests/pe/bad_team_destroyed tests/pe/bad_team_double_destroy tests/pe/bad_team_garbage \
	tests/pe/bad_ctx_double_destroy \
	tests/pe/bad_buf_overlap tests/pe/bad_buf_zero tests/pe/bad_buf_unknown \
	tests/pe/bad_buf_unmapped \
	tests/pe/bad_symreg_private tests/pe/bad_symreg_size tests/pe/bad_symreg_null \
	tests/pe/bad_symreg_unknown tests/pe/bad_symreg_truncated tests/pe/bad_fd_exhausted \
	tests/pe/bad_team_init_noid tests/pe/bad_team_init_ctx_neg tests/pe/bad_team_init_ctx_huge \
	tests/pe/bad_skip_barrier tests/pe/bad_skip_coll tests/pe/bad_malloc_asym \
	tests/pe/bad_team_split_overflow \
	tests/pe/bad_amo_unaligned tests/pe/bad_put_null tests/pe/start_pes_no_finalize \
	tests/pe/start_pes_finalize tests/pe/stop_cont tests/pe/reinit \
	tests/pe/bad_transport_name tests/pe/bad_hca tests/pe/bad_verbs_peer_dies \
	tests/pe/bad_hca_abc tests/pe/bad_hca_neg tests/pe/bad_hca_port tests/pe/bad_hca_notopo \
	tests/pe/bad_verbs_port_down \
	tests/pe/bad_wait_team_init_missing tests/pe/bad_wait_team_init_uid tests/pe/bad_team_init_count \
	tests/pe/bad_wait_warn tests/pe/bad_wait_boot_allgather \
	tests/pe/bad_wait_symreg_alone tests/pe/bad_wait_symreg_skip \
	tests/pe/bad_fin_team_sync tests/pe/bad_fin_team_bcast tests/pe/bad_fin_lock \
	tests/pe/bad_fin_wait_until tests/pe/bad_fin_signal tests/pe/bad_fin_wait_any tests/pe/bad_fin_warn \
	tests/pe/bad_dead_peer tests/pe/bad_dead_child tests/pe/bad_mismatch_coll tests/pe/slow_peer \
	tests/pe/bad_dead_peer_mt

tests_pe_setup_SOURCES = tests/pe/setup.c tests/pe/pe_test.h
tests_pe_setup_LDADD = libgshmem.la
tests_pe_mem_SOURCES = tests/pe/mem.c tests/pe/pe_test.h
tests_pe_mem_LDADD = libgshmem.la
tests_pe_static_SOURCES = tests/pe/static.c tests/pe/pe_test.h
tests_pe_static_LDADD = libgshmem.la
tests_pe_rma_SOURCES = tests/pe/rma.c tests/pe/pe_test.h
tests_pe_rma_LDADD = libgshmem.la
tests_pe_amo_SOURCES = tests/pe/amo.c tests/pe/pe_test.h
tests_pe_amo_LDADD = libgshmem.la
tests_pe_signal_SOURCES = tests/pe/signal.c tests/pe/pe_test.h
tests_pe_signal_LDADD = libgshmem.la
tests_pe_p2psync_SOURCES = tests/pe/p2psync.c tests/pe/pe_test.h
tests_pe_p2psync_LDADD = libgshmem.la
tests_pe_order_SOURCES = tests/pe/order.c tests/pe/pe_test.h
tests_pe_order_LDADD = libgshmem.la
tests_pe_amo_contend_SOURCES = tests/pe/amo_contend.c tests/pe/pe_test.h
tests_pe_amo_contend_LDADD = libgshmem.la
tests_pe_lock_SOURCES = tests/pe/lock.c tests/pe/pe_test.h
tests_pe_lock_LDADD = libgshmem.la
tests_pe_ctx_SOURCES = tests/pe/ctx.c tests/pe/pe_test.h
tests_pe_ctx_LDADD = libgshmem.la
tests_pe_threads_SOURCES = tests/pe/threads.c tests/pe/pe_test.h
tests_pe_threads_LDADD = libgshmem.la -lpthread
tests_pe_barrier_SOURCES = tests/pe/barrier.c tests/pe/pe_test.h
tests_pe_barrier_LDADD = libgshmem.la
# The C11 generic names: strict C11, so no GNU extension hides a problem.
tests_pe_generic_SOURCES = tests/pe/generic.c tests/pe/pe_test.h
tests_pe_generic_CFLAGS = $(AM_CFLAGS) -std=c11
tests_pe_generic_LDADD = libgshmem.la
tests_pe_test_any_SOURCES = tests/pe/test_any.c tests/pe/pe_test.h
tests_pe_test_any_LDADD = libgshmem.la

tests_pe_bad_pe_range_SOURCES = tests/pe/bad_pe_range.c
tests_pe_bad_pe_range_LDADD = libgshmem.la
tests_pe_bad_not_symmetric_SOURCES = tests/pe/bad_not_symmetric.c
tests_pe_bad_not_symmetric_LDADD = libgshmem.la
tests_pe_bad_before_init_SOURCES = tests/pe/bad_before_init.c
tests_pe_bad_before_init_LDADD = libgshmem.la
tests_pe_bad_finalize_SOURCES = tests/pe/bad_finalize.c
tests_pe_bad_finalize_LDADD = libgshmem.la
tests_pe_bad_env_SOURCES = tests/pe/bad_env.c
tests_pe_bad_env_LDADD = libgshmem.la
tests_pe_bad_boot_pmi2_SOURCES = tests/pe/bad_boot_pmi2.c
tests_pe_bad_boot_pmi2_LDADD = libgshmem.la
tests_pe_bad_transport_name_SOURCES = tests/pe/bad_transport_name.c
tests_pe_bad_transport_name_LDADD = libgshmem.la
tests_pe_bad_hca_SOURCES = tests/pe/bad_hca.c
tests_pe_bad_hca_LDADD = libgshmem.la
# GSHMEM_HCA naming no device, refused whatever the transport (issue 29).
tests_pe_bad_hca_abc_SOURCES = tests/pe/bad_hca_abc.c
tests_pe_bad_hca_abc_LDADD = libgshmem.la
tests_pe_bad_hca_neg_SOURCES = tests/pe/bad_hca_neg.c
tests_pe_bad_hca_neg_LDADD = libgshmem.la
tests_pe_bad_hca_port_SOURCES = tests/pe/bad_hca_port.c
tests_pe_bad_hca_port_LDADD = libgshmem.la
tests_pe_bad_hca_notopo_SOURCES = tests/pe/bad_hca_notopo.c
tests_pe_bad_hca_notopo_LDADD = libgshmem.la
# Built here, run over verbs only (the rig: tests/rdma/tests.list).
tests_pe_bad_verbs_peer_dies_SOURCES = tests/pe/bad_verbs_peer_dies.c
tests_pe_bad_verbs_peer_dies_LDADD = libgshmem.la
tests_pe_bad_verbs_port_down_SOURCES = tests/pe/bad_verbs_port_down.c
tests_pe_bad_verbs_port_down_LDADD = libgshmem.la
tests_pe_bad_free_SOURCES = tests/pe/bad_free.c
tests_pe_bad_free_LDADD = libgshmem.la
tests_pe_bad_wait_cmp_SOURCES = tests/pe/bad_wait_cmp.c
tests_pe_bad_wait_cmp_LDADD = libgshmem.la
tests_pe_bad_sig_op_SOURCES = tests/pe/bad_sig_op.c
tests_pe_bad_sig_op_LDADD = libgshmem.la
tests_pe_bad_global_exit_SOURCES = tests/pe/bad_global_exit.c
tests_pe_bad_global_exit_LDADD = libgshmem.la
tests_pe_bad_relro_SOURCES = tests/pe/bad_relro.c
tests_pe_bad_relro_LDADD = libgshmem.la
tests_pe_bad_sync_area_SOURCES = tests/pe/bad_sync_area.c
tests_pe_bad_sync_area_LDADD = libgshmem.la
tests_pe_bad_team_destroyed_SOURCES = tests/pe/bad_team_destroyed.c
tests_pe_bad_team_destroyed_LDADD = libgshmem.la
tests_pe_bad_team_double_destroy_SOURCES = tests/pe/bad_team_double_destroy.c
tests_pe_bad_team_double_destroy_LDADD = libgshmem.la
tests_pe_bad_team_garbage_SOURCES = tests/pe/bad_team_garbage.c
tests_pe_bad_team_garbage_LDADD = libgshmem.la
# gshmemx_buffer_register's misuse: NVSHMEM's code and one line (issue 18).
tests_pe_bad_buf_overlap_SOURCES = tests/pe/bad_buf_overlap.c
tests_pe_bad_buf_overlap_LDADD = libgshmem.la
tests_pe_bad_buf_zero_SOURCES = tests/pe/bad_buf_zero.c
tests_pe_bad_buf_zero_LDADD = libgshmem.la
tests_pe_bad_buf_unmapped_SOURCES = tests/pe/bad_buf_unmapped.c
tests_pe_bad_buf_unmapped_LDADD = libgshmem.la
tests_pe_bad_buf_unknown_SOURCES = tests/pe/bad_buf_unknown.c
tests_pe_bad_buf_unknown_LDADD = libgshmem.la
# gshmemx_buffer_register_symmetric's misuse: one line, the whole job ends (issue 18).
tests_pe_bad_symreg_private_SOURCES = tests/pe/bad_symreg_private.c
tests_pe_bad_symreg_private_LDADD = libgshmem.la
tests_pe_bad_symreg_size_SOURCES = tests/pe/bad_symreg_size.c tests/pe/file_buf.h
tests_pe_bad_symreg_truncated_SOURCES = tests/pe/bad_symreg_truncated.c tests/pe/file_buf.h
tests_pe_bad_symreg_truncated_LDADD = libgshmem.la
tests_pe_bad_fd_exhausted_SOURCES = tests/pe/bad_fd_exhausted.c tests/pe/file_buf.h
tests_pe_bad_fd_exhausted_LDADD = libgshmem.la
tests_pe_bad_symreg_size_LDADD = libgshmem.la
tests_pe_bad_symreg_null_SOURCES = tests/pe/bad_symreg_null.c
tests_pe_bad_symreg_null_LDADD = libgshmem.la
tests_pe_bad_symreg_unknown_SOURCES = tests/pe/bad_symreg_unknown.c
tests_pe_bad_symreg_unknown_LDADD = libgshmem.la
tests_pe_bad_team_init_noid_SOURCES = tests/pe/bad_team_init_noid.c
tests_pe_bad_team_init_noid_LDADD = libgshmem.la
tests_pe_bad_team_init_ctx_neg_SOURCES = tests/pe/bad_team_init_ctx_neg.c
tests_pe_bad_team_init_ctx_neg_LDADD = libgshmem.la
tests_pe_bad_team_init_ctx_huge_SOURCES = tests/pe/bad_team_init_ctx_huge.c
tests_pe_bad_team_init_ctx_huge_LDADD = libgshmem.la
tests_pe_bad_ctx_double_destroy_SOURCES = tests/pe/bad_ctx_double_destroy.c
tests_pe_bad_ctx_double_destroy_LDADD = libgshmem.la
tests_pe_bad_skip_barrier_SOURCES = tests/pe/bad_skip_barrier.c
tests_pe_bad_skip_barrier_LDADD = libgshmem.la
tests_pe_bad_skip_coll_SOURCES = tests/pe/bad_skip_coll.c
tests_pe_bad_skip_coll_LDADD = libgshmem.la
tests_pe_bad_malloc_asym_SOURCES = tests/pe/bad_malloc_asym.c
tests_pe_bad_malloc_asym_LDADD = libgshmem.la
tests_pe_bad_team_split_overflow_SOURCES = tests/pe/bad_team_split_overflow.c
tests_pe_bad_team_split_overflow_LDADD = libgshmem.la
tests_pe_bad_amo_unaligned_SOURCES = tests/pe/bad_amo_unaligned.c
tests_pe_bad_amo_unaligned_LDADD = libgshmem.la
tests_pe_bad_put_null_SOURCES = tests/pe/bad_put_null.c
tests_pe_bad_put_null_LDADD = libgshmem.la
tests_pe_start_pes_no_finalize_SOURCES = tests/pe/start_pes_no_finalize.c tests/pe/pe_test.h
tests_pe_start_pes_no_finalize_LDADD = libgshmem.la
tests_pe_start_pes_finalize_SOURCES = tests/pe/start_pes_finalize.c tests/pe/pe_test.h
tests_pe_start_pes_finalize_LDADD = libgshmem.la
tests_pe_reinit_SOURCES = tests/pe/reinit.c
tests_pe_reinit_LDADD = libgshmem.la
# Waits that did not honour GSHMEM_WAIT_TIMEOUT (issue 29): each ends the job
# after 5 s with a line naming the routine and what it waited for.
tests_pe_bad_wait_team_init_missing_SOURCES = tests/pe/bad_wait_team_init_missing.c
tests_pe_bad_wait_team_init_missing_LDADD = libgshmem.la
tests_pe_bad_wait_team_init_uid_SOURCES = tests/pe/bad_wait_team_init_uid.c
tests_pe_bad_wait_team_init_uid_LDADD = libgshmem.la
tests_pe_bad_team_init_count_SOURCES = tests/pe/bad_team_init_count.c
tests_pe_bad_team_init_count_LDADD = libgshmem.la
# A long wait's first line, after GSHMEM_WAIT_WARN (issue 32).
tests_pe_bad_wait_warn_SOURCES = tests/pe/bad_wait_warn.c
tests_pe_bad_wait_warn_LDADD = libgshmem.la
# Bootstrap allgathers that one PE never reaches end after GSHMEM_WAIT_TIMEOUT (issue 29).
tests_pe_bad_wait_boot_allgather_SOURCES = tests/pe/bad_wait_boot_allgather.c
tests_pe_bad_wait_boot_allgather_LDADD = libgshmem.la
tests_pe_bad_wait_symreg_alone_SOURCES = tests/pe/bad_wait_symreg_alone.c tests/pe/file_buf.h
tests_pe_bad_wait_symreg_alone_LDADD = libgshmem.la
# A registration is compared with the peers' calls first (issue 32).
tests_pe_bad_wait_symreg_skip_SOURCES = tests/pe/bad_wait_symreg_skip.c tests/pe/file_buf.h
tests_pe_bad_wait_symreg_skip_LDADD = libgshmem.la
tests_pe_stop_cont_SOURCES = tests/pe/stop_cont.c tests/pe/pe_test.h
tests_pe_stop_cont_LDADD = libgshmem.la -lpthread

# Failure propagation (src/core/liveness.c): a PE that finalizes or dies
# while the others wait ends the job within seconds; a slow PE does not.
tests_pe_bad_fin_team_sync_SOURCES = tests/pe/bad_fin_team_sync.c tests/pe/bad_fin.h
tests_pe_bad_fin_team_sync_LDADD = libgshmem.la
tests_pe_bad_fin_team_bcast_SOURCES = tests/pe/bad_fin_team_bcast.c tests/pe/bad_fin.h
tests_pe_bad_fin_team_bcast_LDADD = libgshmem.la
tests_pe_bad_fin_lock_SOURCES = tests/pe/bad_fin_lock.c tests/pe/bad_fin.h
tests_pe_bad_fin_lock_LDADD = libgshmem.la
tests_pe_bad_fin_wait_until_SOURCES = tests/pe/bad_fin_wait_until.c tests/pe/bad_fin.h
tests_pe_bad_fin_wait_until_LDADD = libgshmem.la
tests_pe_bad_fin_signal_SOURCES = tests/pe/bad_fin_signal.c tests/pe/bad_fin.h
tests_pe_bad_fin_signal_LDADD = libgshmem.la
tests_pe_bad_fin_wait_any_SOURCES = tests/pe/bad_fin_wait_any.c tests/pe/bad_fin.h
tests_pe_bad_fin_wait_any_LDADD = libgshmem.la
tests_pe_bad_fin_warn_SOURCES = tests/pe/bad_fin_warn.c tests/pe/bad_fin.h
tests_pe_bad_fin_warn_LDADD = libgshmem.la
tests_pe_bad_dead_peer_SOURCES = tests/pe/bad_dead_peer.c
tests_pe_bad_dead_peer_LDADD = libgshmem.la
tests_pe_bad_dead_peer_mt_SOURCES = tests/pe/bad_dead_peer_mt.c
tests_pe_bad_dead_peer_mt_LDADD = libgshmem.la
tests_pe_bad_dead_child_SOURCES = tests/pe/bad_dead_child.c
tests_pe_bad_dead_child_LDADD = libgshmem.la
tests_pe_bad_mismatch_coll_SOURCES = tests/pe/bad_mismatch_coll.c
tests_pe_bad_mismatch_coll_LDADD = libgshmem.la
tests_pe_slow_peer_SOURCES = tests/pe/slow_peer.c
tests_pe_slow_peer_LDADD = libgshmem.la

# 1, 2 and 4 PEs; 3 as well where a power of two could hide a mistake.
TESTS += \
	tests/pe/setup-np1.pe tests/pe/setup-np2.pe tests/pe/setup-np4.pe \
	tests/pe/mem-np1.pe tests/pe/mem-np2.pe tests/pe/mem-np4.pe \
	tests/pe/static-np1.pe tests/pe/static-np2.pe tests/pe/static-np4.pe \
	tests/pe/rma-np1.pe tests/pe/rma-np2.pe tests/pe/rma-np4.pe \
	tests/pe/amo-np1.pe tests/pe/amo-np2.pe tests/pe/amo-np3.pe tests/pe/amo-np4.pe \
	tests/pe/signal-np1.pe tests/pe/signal-np2.pe tests/pe/signal-np4.pe \
	tests/pe/p2psync-np1.pe tests/pe/p2psync-np2.pe tests/pe/p2psync-np4.pe \
	tests/pe/order-np1.pe tests/pe/order-np2.pe tests/pe/order-np4.pe \
	tests/pe/amo_contend-np1.pe tests/pe/amo_contend-np2.pe tests/pe/amo_contend-np4.pe \
	tests/pe/lock-np1.pe tests/pe/lock-np2.pe tests/pe/lock-np3.pe tests/pe/lock-np4.pe \
	tests/pe/ctx-np1.pe tests/pe/ctx-np2.pe tests/pe/ctx-np4.pe \
	tests/pe/threads-np1.pe tests/pe/threads-np2.pe tests/pe/threads-np4.pe \
	tests/pe/barrier-np1.pe tests/pe/barrier-np2.pe tests/pe/barrier-np3.pe \
	tests/pe/barrier-np4.pe \
	tests/pe/generic-np1.pe tests/pe/generic-np2.pe tests/pe/generic-np4.pe \
	tests/pe/test_any-np1.pe tests/pe/test_any-np2.pe \
	tests/pe/bad_pe_range-np1.pe tests/pe/bad_pe_range-np2.pe \
	tests/pe/bad_not_symmetric-np1.pe tests/pe/bad_not_symmetric-np2.pe \
	tests/pe/bad_before_init-np1.pe tests/pe/bad_before_init-np2.pe \
	tests/pe/bad_finalize-np1.pe tests/pe/bad_finalize-np2.pe \
	tests/pe/bad_env-np1.pe tests/pe/bad_env-np2.pe \
	tests/pe/bad_boot_pmi2-np2.pe \
	tests/pe/bad_transport_name-np1.pe tests/pe/bad_hca-np2.pe \
	tests/pe/bad_hca_abc-np1.pe tests/pe/bad_hca_abc-np2.pe \
	tests/pe/bad_hca_neg-np1.pe tests/pe/bad_hca_neg-np2.pe \
	tests/pe/bad_hca_port-np1.pe tests/pe/bad_hca_port-np2.pe \
	tests/pe/bad_hca_notopo-np1.pe tests/pe/bad_hca_notopo-np2.pe \
	tests/pe/bad_free-np1.pe tests/pe/bad_free-np2.pe \
	tests/pe/bad_wait_cmp-np1.pe tests/pe/bad_wait_cmp-np2.pe \
	tests/pe/bad_sig_op-np1.pe tests/pe/bad_sig_op-np2.pe \
	tests/pe/bad_global_exit-np1.pe tests/pe/bad_global_exit-np2.pe \
	tests/pe/bad_relro-np1.pe tests/pe/bad_relro-np2.pe \
	tests/pe/bad_sync_area-np1.pe tests/pe/bad_sync_area-np2.pe \
	tests/pe/bad_team_destroyed-np1.pe tests/pe/bad_team_destroyed-np2.pe \
	tests/pe/bad_team_double_destroy-np1.pe tests/pe/bad_team_double_destroy-np2.pe \
	tests/pe/bad_team_garbage-np1.pe tests/pe/bad_team_garbage-np2.pe \
	tests/pe/bad_buf_overlap-np1.pe tests/pe/bad_buf_overlap-np2.pe \
	tests/pe/bad_buf_zero-np1.pe tests/pe/bad_buf_zero-np2.pe \
	tests/pe/bad_buf_unmapped-np1.pe \
	tests/pe/bad_buf_unknown-np1.pe tests/pe/bad_buf_unknown-np2.pe \
	tests/pe/bad_symreg_private-np1.pe tests/pe/bad_symreg_private-np2.pe \
	tests/pe/bad_symreg_size-np1.pe tests/pe/bad_symreg_size-np2.pe \
	tests/pe/bad_symreg_null-np1.pe tests/pe/bad_symreg_null-np2.pe \
	tests/pe/bad_symreg_unknown-np1.pe tests/pe/bad_symreg_unknown-np2.pe \
	tests/pe/bad_symreg_truncated-np1.pe tests/pe/bad_symreg_truncated-np2.pe \
	tests/pe/bad_fd_exhausted-np1.pe tests/pe/bad_fd_exhausted-np2.pe \
	tests/pe/bad_team_init_noid-np1.pe tests/pe/bad_team_init_noid-np2.pe \
	tests/pe/bad_team_init_ctx_neg-np2.pe tests/pe/bad_team_init_ctx_huge-np2.pe \
	tests/pe/bad_ctx_double_destroy-np1.pe tests/pe/bad_ctx_double_destroy-np2.pe \
	tests/pe/bad_skip_barrier-np2.pe tests/pe/bad_skip_barrier-np4.pe \
	tests/pe/bad_skip_coll-np2.pe tests/pe/bad_skip_coll-np3.pe \
	tests/pe/bad_malloc_asym-np2.pe tests/pe/bad_malloc_asym-np4.pe \
	tests/pe/bad_team_split_overflow-np1.pe tests/pe/bad_team_split_overflow-np2.pe \
	tests/pe/bad_amo_unaligned-np1.pe tests/pe/bad_amo_unaligned-np2.pe \
	tests/pe/bad_put_null-np1.pe tests/pe/bad_put_null-np2.pe \
	tests/pe/start_pes_no_finalize-np1.pe tests/pe/start_pes_no_finalize-np2.pe \
	tests/pe/start_pes_no_finalize-np4.pe \
	tests/pe/start_pes_finalize-np1.pe tests/pe/start_pes_finalize-np2.pe \
	tests/pe/stop_cont-np2.pe tests/pe/stop_cont-np4.pe \
	tests/pe/reinit-np2.pe \
	tests/pe/bad_wait_team_init_missing-np2.pe tests/pe/bad_wait_team_init_uid-np2.pe \
	tests/pe/bad_team_init_count-np2.pe tests/pe/bad_team_init_count-np4.pe \
	tests/pe/bad_wait_warn-np2.pe tests/pe/bad_wait_boot_allgather-np2.pe \
	tests/pe/bad_wait_symreg_alone-np2.pe tests/pe/bad_wait_symreg_skip-np2.pe \
	tests/pe/bad_fin_team_sync-np2.pe tests/pe/bad_fin_team_sync-np4.pe \
	tests/pe/bad_fin_team_bcast-np2.pe tests/pe/bad_fin_lock-np2.pe \
	tests/pe/bad_fin_wait_until-np2.pe tests/pe/bad_fin_wait_until-np4.pe \
	tests/pe/bad_fin_signal-np2.pe tests/pe/bad_fin_wait_any-np2.pe tests/pe/bad_fin_warn-np2.pe \
	tests/pe/bad_dead_peer-np2.pe tests/pe/bad_dead_child-np2.pe tests/pe/bad_mismatch_coll-np2.pe tests/pe/slow_peer-np2.pe \
	tests/pe/bad_dead_peer_mt-np2.pe tests/pe/bad_dead_peer_mt-np4.pe

# The network transport's active messages beside its RMA (see the script).
TESTS += tests/pe/am.sh
EXTRA_DIST += tests/pe/am.sh
# The same path over UCX's TCP transport alone, where every operation is a
# message (scripts/sanitize.sh runs it under UBSan too).
TESTS += tests/pe/tcp.sh
EXTRA_DIST += tests/pe/tcp.sh
# Init after finalize at length: 200 cycles with a flat footprint, and 6 runs
# of 20 over UCX under PMIx.
TESTS += tests/pe/reinit_soak.sh
EXTRA_DIST += tests/pe/reinit_soak.sh
# The node transport (src/net/node/): device programs through the proxy ring
# and host programs through the core's network path, without UCX.
TESTS += tests/pe/node.sh
EXTRA_DIST += tests/pe/node.sh
# gshmemrun's binding: one-PE jobs unbound, a caller's --bind-to wins, a
# 2-PE job one core per PE.
TESTS += tests/pe/gshmemrun-bind.sh
EXTRA_DIST += tests/pe/gshmemrun-bind.sh
