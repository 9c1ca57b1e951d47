# multi-PE tests of the coll collectives: appends to check_PROGRAMS and TESTS
# broadcast, [f]collect, alltoall[s] (team-based, every RMA type, and the
# deprecated active-set forms) and the active-set shmem_barrier/shmem_sync;
# the bad_coll_* programs with a size, root, operator or routine that
# differs between PEs (issue 29) need 2 PEs; most run on 4 too, where only
# the last PE (PE 3) disagrees and the expected line names it (alltoall,
# reduce_op and routine pass the same barrier as reduce_count there, and
# are left at 2 PEs for CI time: each run costs ~1.1 s);
# tests/pe/coll_test.h holds what they share.  The *_net programs are the
# same sources with COLL_NET: they set GSHMEM_COLL_P2P=0 before shmem_init,
# so the algorithms for members that are not mapped (tree, ring, chain,
# puts and signals) run over the same memory.

check_PROGRAMS += tests/pe/coll_bcast tests/pe/coll_bcast_net tests/pe/coll_collect \
	tests/pe/coll_collect_net tests/pe/coll_alltoall tests/pe/coll_alltoall_net \
	tests/pe/coll_sync tests/pe/bad_coll_root tests/pe/bad_coll_aset_root \
	tests/pe/bad_coll_not_in_set tests/pe/bad_coll_aset_range tests/pe/bad_coll_psync \
	tests/pe/bad_coll_stride tests/pe/bad_coll_dest_small_bcast \
	tests/pe/bad_coll_dest_small_fcollect tests/pe/bad_coll_dest_small_alltoall \
	tests/pe/bad_coll_dest_small_reduce tests/pe/bad_coll_dest_private \
	tests/pe/bad_coll_bcast_size tests/pe/bad_coll_bcast_root tests/pe/bad_coll_fcollect_size \
	tests/pe/bad_coll_alltoall_size tests/pe/bad_coll_reduce_count tests/pe/bad_coll_reduce_op \
	tests/pe/bad_coll_routine tests/pe/bad_coll_bcast_two_roots \
	tests/pe/bad_coll_aset_alltoall_size tests/pe/bad_coll_aset_bcast_size \
	tests/pe/bad_coll_aset_fcollect_size tests/pe/coll_bcast_wrap \
	tests/pe/coll_fcollect_wrap

tests_pe_coll_bcast_SOURCES = tests/pe/coll_bcast.c tests/pe/coll_test.h tests/pe/pe_test.h
tests_pe_coll_bcast_LDADD = libgshmem.la
tests_pe_coll_bcast_net_SOURCES = tests/pe/coll_bcast.c tests/pe/coll_test.h tests/pe/pe_test.h
tests_pe_coll_bcast_net_CFLAGS = $(AM_CFLAGS) -DCOLL_NET
tests_pe_coll_bcast_net_LDADD = libgshmem.la
tests_pe_coll_collect_SOURCES = tests/pe/coll_collect.c tests/pe/coll_test.h tests/pe/pe_test.h
tests_pe_coll_collect_LDADD = libgshmem.la
tests_pe_coll_collect_net_SOURCES = tests/pe/coll_collect.c tests/pe/coll_test.h \
	tests/pe/pe_test.h
tests_pe_coll_collect_net_CFLAGS = $(AM_CFLAGS) -DCOLL_NET
tests_pe_coll_collect_net_LDADD = libgshmem.la
tests_pe_coll_alltoall_SOURCES = tests/pe/coll_alltoall.c tests/pe/coll_test.h \
	tests/pe/pe_test.h
tests_pe_coll_alltoall_LDADD = libgshmem.la
tests_pe_coll_alltoall_net_SOURCES = tests/pe/coll_alltoall.c tests/pe/coll_test.h \
	tests/pe/pe_test.h
tests_pe_coll_alltoall_net_CFLAGS = $(AM_CFLAGS) -DCOLL_NET
tests_pe_coll_alltoall_net_LDADD = libgshmem.la
tests_pe_coll_sync_SOURCES = tests/pe/coll_sync.c tests/pe/coll_test.h tests/pe/pe_test.h
tests_pe_coll_sync_LDADD = libgshmem.la
tests_pe_bad_coll_root_SOURCES = tests/pe/bad_coll_root.c
tests_pe_bad_coll_root_LDADD = libgshmem.la
tests_pe_bad_coll_aset_root_SOURCES = tests/pe/bad_coll_aset_root.c
tests_pe_bad_coll_aset_root_LDADD = libgshmem.la
tests_pe_bad_coll_not_in_set_SOURCES = tests/pe/bad_coll_not_in_set.c
tests_pe_bad_coll_not_in_set_LDADD = libgshmem.la
tests_pe_bad_coll_aset_range_SOURCES = tests/pe/bad_coll_aset_range.c
tests_pe_bad_coll_aset_range_LDADD = libgshmem.la
tests_pe_bad_coll_psync_SOURCES = tests/pe/bad_coll_psync.c
tests_pe_bad_coll_psync_LDADD = libgshmem.la
tests_pe_bad_coll_stride_SOURCES = tests/pe/bad_coll_stride.c
tests_pe_bad_coll_stride_LDADD = libgshmem.la
tests_pe_bad_coll_dest_small_bcast_SOURCES = tests/pe/bad_coll_dest_small_bcast.c
tests_pe_bad_coll_dest_small_bcast_LDADD = libgshmem.la
tests_pe_bad_coll_dest_small_fcollect_SOURCES = tests/pe/bad_coll_dest_small_fcollect.c
tests_pe_bad_coll_dest_small_fcollect_LDADD = libgshmem.la
tests_pe_bad_coll_dest_small_alltoall_SOURCES = tests/pe/bad_coll_dest_small_alltoall.c
tests_pe_bad_coll_dest_small_alltoall_LDADD = libgshmem.la
tests_pe_bad_coll_dest_small_reduce_SOURCES = tests/pe/bad_coll_dest_small_reduce.c
tests_pe_bad_coll_dest_small_reduce_LDADD = libgshmem.la
tests_pe_bad_coll_dest_private_SOURCES = tests/pe/bad_coll_dest_private.c
tests_pe_bad_coll_dest_private_LDADD = libgshmem.la
tests_pe_bad_coll_bcast_size_SOURCES = tests/pe/bad_coll_bcast_size.c
tests_pe_bad_coll_bcast_size_LDADD = libgshmem.la
tests_pe_bad_coll_bcast_root_SOURCES = tests/pe/bad_coll_bcast_root.c
tests_pe_bad_coll_bcast_root_LDADD = libgshmem.la
tests_pe_bad_coll_fcollect_size_SOURCES = tests/pe/bad_coll_fcollect_size.c
tests_pe_bad_coll_fcollect_size_LDADD = libgshmem.la
tests_pe_bad_coll_alltoall_size_SOURCES = tests/pe/bad_coll_alltoall_size.c
tests_pe_bad_coll_alltoall_size_LDADD = libgshmem.la
tests_pe_bad_coll_reduce_count_SOURCES = tests/pe/bad_coll_reduce_count.c
tests_pe_bad_coll_reduce_count_LDADD = libgshmem.la
tests_pe_bad_coll_reduce_op_SOURCES = tests/pe/bad_coll_reduce_op.c
tests_pe_bad_coll_reduce_op_LDADD = libgshmem.la
tests_pe_bad_coll_routine_SOURCES = tests/pe/bad_coll_routine.c
tests_pe_bad_coll_routine_LDADD = libgshmem.la
tests_pe_bad_coll_bcast_two_roots_SOURCES = tests/pe/bad_coll_bcast_two_roots.c
tests_pe_bad_coll_bcast_two_roots_LDADD = libgshmem.la
tests_pe_bad_coll_aset_alltoall_size_SOURCES = tests/pe/bad_coll_aset_alltoall_size.c
tests_pe_bad_coll_aset_alltoall_size_LDADD = libgshmem.la
tests_pe_bad_coll_aset_bcast_size_SOURCES = tests/pe/bad_coll_aset_bcast_size.c
tests_pe_bad_coll_aset_bcast_size_LDADD = libgshmem.la
tests_pe_bad_coll_aset_fcollect_size_SOURCES = tests/pe/bad_coll_aset_fcollect_size.c
tests_pe_bad_coll_aset_fcollect_size_LDADD = libgshmem.la
tests_pe_coll_bcast_wrap_SOURCES = tests/pe/coll_bcast_wrap.c tests/pe/pe_test.h
tests_pe_coll_bcast_wrap_LDADD = libgshmem.la
tests_pe_coll_fcollect_wrap_SOURCES = tests/pe/coll_fcollect_wrap.c tests/pe/pe_test.h
tests_pe_coll_fcollect_wrap_LDADD = libgshmem.la

TESTS += \
	tests/pe/coll_bcast-np1.pe tests/pe/coll_bcast-np2.pe tests/pe/coll_bcast-np3.pe \
	tests/pe/coll_bcast-np4.pe \
	tests/pe/coll_bcast_net-np1.pe tests/pe/coll_bcast_net-np2.pe \
	tests/pe/coll_bcast_net-np3.pe tests/pe/coll_bcast_net-np4.pe \
	tests/pe/coll_collect-np1.pe tests/pe/coll_collect-np2.pe tests/pe/coll_collect-np3.pe \
	tests/pe/coll_collect-np4.pe \
	tests/pe/coll_collect_net-np1.pe tests/pe/coll_collect_net-np2.pe \
	tests/pe/coll_collect_net-np3.pe tests/pe/coll_collect_net-np4.pe \
	tests/pe/coll_alltoall-np1.pe tests/pe/coll_alltoall-np2.pe \
	tests/pe/coll_alltoall-np3.pe tests/pe/coll_alltoall-np4.pe \
	tests/pe/coll_alltoall_net-np1.pe tests/pe/coll_alltoall_net-np2.pe \
	tests/pe/coll_alltoall_net-np3.pe tests/pe/coll_alltoall_net-np4.pe \
	tests/pe/coll_sync-np1.pe tests/pe/coll_sync-np2.pe tests/pe/coll_sync-np3.pe \
	tests/pe/coll_sync-np4.pe \
	tests/pe/bad_coll_root-np1.pe tests/pe/bad_coll_root-np2.pe \
	tests/pe/bad_coll_root-np4.pe \
	tests/pe/bad_coll_aset_root-np1.pe tests/pe/bad_coll_aset_root-np2.pe \
	tests/pe/bad_coll_aset_root-np4.pe \
	tests/pe/bad_coll_not_in_set-np2.pe tests/pe/bad_coll_not_in_set-np3.pe \
	tests/pe/bad_coll_not_in_set-np4.pe \
	tests/pe/bad_coll_aset_range-np1.pe tests/pe/bad_coll_aset_range-np2.pe \
	tests/pe/bad_coll_psync-np1.pe tests/pe/bad_coll_psync-np2.pe \
	tests/pe/bad_coll_stride-np1.pe tests/pe/bad_coll_stride-np2.pe \
	tests/pe/bad_coll_dest_small_bcast-np1.pe tests/pe/bad_coll_dest_small_bcast-np2.pe \
	tests/pe/bad_coll_dest_small_bcast-np4.pe \
	tests/pe/bad_coll_dest_small_fcollect-np1.pe \
	tests/pe/bad_coll_dest_small_fcollect-np2.pe \
	tests/pe/bad_coll_dest_small_fcollect-np4.pe \
	tests/pe/bad_coll_dest_small_alltoall-np1.pe \
	tests/pe/bad_coll_dest_small_alltoall-np2.pe \
	tests/pe/bad_coll_dest_small_alltoall-np4.pe \
	tests/pe/bad_coll_dest_small_reduce-np1.pe tests/pe/bad_coll_dest_small_reduce-np2.pe \
	tests/pe/bad_coll_dest_small_reduce-np4.pe \
	tests/pe/bad_coll_dest_private-np1.pe tests/pe/bad_coll_dest_private-np2.pe \
	tests/pe/bad_coll_bcast_size-np2.pe tests/pe/bad_coll_bcast_root-np2.pe \
	tests/pe/bad_coll_fcollect_size-np2.pe tests/pe/bad_coll_alltoall_size-np2.pe \
	tests/pe/bad_coll_reduce_count-np2.pe tests/pe/bad_coll_reduce_op-np2.pe \
	tests/pe/bad_coll_routine-np2.pe tests/pe/bad_coll_bcast_two_roots-np2.pe \
	tests/pe/bad_coll_aset_alltoall_size-np2.pe tests/pe/bad_coll_aset_alltoall_size-np4.pe \
	tests/pe/bad_coll_aset_bcast_size-np2.pe tests/pe/bad_coll_aset_bcast_size-np4.pe \
	tests/pe/bad_coll_aset_fcollect_size-np2.pe tests/pe/bad_coll_aset_fcollect_size-np4.pe \
	tests/pe/bad_coll_bcast_size-np4.pe tests/pe/bad_coll_bcast_two_roots-np4.pe \
	tests/pe/bad_coll_fcollect_size-np4.pe tests/pe/bad_coll_reduce_count-np4.pe \
	tests/pe/coll_bcast_wrap-np2.pe tests/pe/coll_fcollect_wrap-np2.pe
