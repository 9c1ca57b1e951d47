# multi-PE tests of the reduce collectives: appends to check_PROGRAMS and TESTS
# Team reductions, scans and the deprecated _to_all, every operator on every
# type (tests/pe/reduce_test.h holds what they share).  The *_net programs
# are the same sources run with GSHMEM_COLL_P2P=0: the algorithms for PEs
# that are not mapped (gsi_get/gsi_put).

check_PROGRAMS += tests/pe/reduce tests/pe/reduce_net tests/pe/reduce_scan \
	tests/pe/reduce_scan_net tests/pe/reduce_toall tests/pe/reduce_toall_net \
	tests/pe/bad_reduce_aset tests/pe/bad_reduce_overlap

tests_pe_reduce_SOURCES = tests/pe/reduce.c tests/pe/reduce_test.h tests/pe/pe_test.h
tests_pe_reduce_LDADD = libgshmem.la
tests_pe_reduce_net_SOURCES = tests/pe/reduce.c tests/pe/reduce_test.h tests/pe/pe_test.h
tests_pe_reduce_net_CFLAGS = $(AM_CFLAGS) -DRT_NETWORK
tests_pe_reduce_net_LDADD = libgshmem.la
tests_pe_reduce_scan_SOURCES = tests/pe/reduce_scan.c tests/pe/reduce_test.h tests/pe/pe_test.h
tests_pe_reduce_scan_LDADD = libgshmem.la
tests_pe_reduce_scan_net_SOURCES = tests/pe/reduce_scan.c tests/pe/reduce_test.h \
	tests/pe/pe_test.h
tests_pe_reduce_scan_net_CFLAGS = $(AM_CFLAGS) -DRT_NETWORK
tests_pe_reduce_scan_net_LDADD = libgshmem.la
tests_pe_reduce_toall_SOURCES = tests/pe/reduce_toall.c tests/pe/reduce_test.h tests/pe/pe_test.h
tests_pe_reduce_toall_LDADD = libgshmem.la
tests_pe_reduce_toall_net_SOURCES = tests/pe/reduce_toall.c tests/pe/reduce_test.h \
	tests/pe/pe_test.h
tests_pe_reduce_toall_net_CFLAGS = $(AM_CFLAGS) -DRT_NETWORK
tests_pe_reduce_toall_net_LDADD = libgshmem.la
tests_pe_bad_reduce_aset_SOURCES = tests/pe/bad_reduce_aset.c
tests_pe_bad_reduce_aset_LDADD = libgshmem.la
tests_pe_bad_reduce_overlap_SOURCES = tests/pe/bad_reduce_overlap.c
tests_pe_bad_reduce_overlap_LDADD = libgshmem.la

TESTS += \
	tests/pe/reduce-np1.pe tests/pe/reduce-np2.pe tests/pe/reduce-np3.pe \
	tests/pe/reduce-np4.pe \
	tests/pe/reduce_net-np1.pe tests/pe/reduce_net-np2.pe tests/pe/reduce_net-np3.pe \
	tests/pe/reduce_net-np4.pe \
	tests/pe/reduce_scan-np1.pe tests/pe/reduce_scan-np2.pe tests/pe/reduce_scan-np3.pe \
	tests/pe/reduce_scan-np4.pe \
	tests/pe/reduce_scan_net-np1.pe tests/pe/reduce_scan_net-np2.pe \
	tests/pe/reduce_scan_net-np3.pe tests/pe/reduce_scan_net-np4.pe \
	tests/pe/reduce_toall-np1.pe tests/pe/reduce_toall-np2.pe tests/pe/reduce_toall-np3.pe \
	tests/pe/reduce_toall-np4.pe \
	tests/pe/reduce_toall_net-np1.pe tests/pe/reduce_toall_net-np2.pe \
	tests/pe/reduce_toall_net-np3.pe tests/pe/reduce_toall_net-np4.pe \
	tests/pe/bad_reduce_aset-np1.pe tests/pe/bad_reduce_aset-np2.pe \
	tests/pe/bad_reduce_overlap-np1.pe tests/pe/bad_reduce_overlap-np2.pe

# The reduce-scatter extension (shmemx_TYPENAME_OP_reducescatter), the same
# way: P2P and GSHMEM_COLL_P2P=0.
check_PROGRAMS += tests/pe/reducescatter tests/pe/reducescatter_net \
	tests/pe/bad_reducescatter_overlap
tests_pe_reducescatter_SOURCES = tests/pe/reducescatter.c tests/pe/reduce_test.h \
	tests/pe/pe_test.h
tests_pe_reducescatter_LDADD = libgshmem.la
tests_pe_reducescatter_net_SOURCES = tests/pe/reducescatter.c tests/pe/reduce_test.h \
	tests/pe/pe_test.h
tests_pe_reducescatter_net_CFLAGS = $(AM_CFLAGS) -DRT_NETWORK
tests_pe_reducescatter_net_LDADD = libgshmem.la
tests_pe_bad_reducescatter_overlap_SOURCES = tests/pe/bad_reducescatter_overlap.c
tests_pe_bad_reducescatter_overlap_LDADD = libgshmem.la
TESTS += \
	tests/pe/reducescatter-np1.pe tests/pe/reducescatter-np2.pe \
	tests/pe/reducescatter-np3.pe tests/pe/reducescatter-np4.pe \
	tests/pe/reducescatter_net-np1.pe tests/pe/reducescatter_net-np2.pe \
	tests/pe/reducescatter_net-np3.pe tests/pe/reducescatter_net-np4.pe \
	tests/pe/bad_reducescatter_overlap-np1.pe tests/pe/bad_reducescatter_overlap-np2.pe
