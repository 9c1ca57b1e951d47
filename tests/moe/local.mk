# tests/moe: MoE dispatch + expert + combine (libs/moe) against the
# sequential reference, every token bit for bit: moe_ll (low-latency mode)
# and moe_normal (ring mode), one source (tests/moe/moe_test.c).  Each runs
# at 1, 2 and 4 PEs by tests/pe/run-pe (P2P: load/store), and as a -net.net
# twin with GSHMEM_DISABLE_P2P=1 (every other PE through the proxy
# channels).  The twins are listed here by hand, as tests/device does for
# its ring_tiny: tests/pe/gen-net-mk.sh only scans tests/pe and tests/device.
# moe_inflight: two low-latency dispatches in flight through the public
# library (gshmem_moe.h), at 2 and 4 PEs and their -net twins.
# moe_zero_copy: the library's zero-copy round (rows in place) against a
# staged one and the reference, fewer tokens than the maximum.

check_PROGRAMS += tests/moe/moe_ll tests/moe/moe_normal
tests_moe_moe_ll_SOURCES = tests/moe/moe_test.c
tests_moe_moe_ll_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libs/moe -DMOE_TEST_MODE=MOE_LL
tests_moe_moe_ll_LDADD = libs/moe/libmoe.la libgshmem.la
tests_moe_moe_normal_SOURCES = tests/moe/moe_test.c
tests_moe_moe_normal_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libs/moe -DMOE_TEST_MODE=MOE_NORMAL
tests_moe_moe_normal_LDADD = libs/moe/libmoe.la libgshmem.la
check_PROGRAMS += tests/moe/moe_inflight
tests_moe_moe_inflight_SOURCES = tests/moe/moe_inflight.c $(MOE_RUN_SOURCES)
tests_moe_moe_inflight_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libs/moe
tests_moe_moe_inflight_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)
tests_moe_moe_inflight_LDADD = libs/moe/libgshmem_moe.la libgshmem.la
check_PROGRAMS += tests/moe/moe_zero_copy
tests_moe_moe_zero_copy_SOURCES = tests/moe/moe_zero_copy.c $(MOE_RUN_SOURCES)
tests_moe_moe_zero_copy_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libs/moe
tests_moe_moe_zero_copy_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)
tests_moe_moe_zero_copy_LDADD = libs/moe/libgshmem_moe.la libgshmem.la
# A destroyed or garbage gshmem_moe_t gives a line (the buffer's live word).
check_PROGRAMS += tests/moe/bad_moe_destroyed tests/moe/bad_moe_garbage
tests_moe_bad_moe_destroyed_SOURCES = tests/moe/bad_moe_destroyed.c
tests_moe_bad_moe_destroyed_LDADD = libs/moe/libgshmem_moe.la libgshmem.la
tests_moe_bad_moe_garbage_SOURCES = tests/moe/bad_moe_garbage.c
tests_moe_bad_moe_garbage_LDADD = libs/moe/libgshmem_moe.la libgshmem.la
# A handle that is not the buffer's own dispatch's is refused before use;
# each config field that differs between PEs is named by create.
check_PROGRAMS += tests/moe/moe_handle_checks tests/moe/moe_config_checks
tests_moe_moe_config_checks_SOURCES = tests/moe/moe_config_checks.c tests/pe/pe_test.h
tests_moe_moe_config_checks_LDADD = libs/moe/libgshmem_moe.la libgshmem.la
tests_moe_moe_handle_checks_SOURCES = tests/moe/moe_handle_checks.c tests/moe/moe_ident.h \
	tests/pe/pe_test.h
tests_moe_moe_handle_checks_LDADD = libs/moe/libgshmem_moe.la libgshmem.la
# Configs that differ between PEs, or that one PE refuses, fail on every PE.
check_PROGRAMS += tests/moe/bad_moe_config
# One PE refuses its dispatch's or combine's arguments while the others
# call it: every PE returns the error, none waits (the vote in gshmem_moe.c).
check_PROGRAMS += tests/moe/moe_route_vote
tests_moe_moe_route_vote_SOURCES = tests/moe/moe_route_vote.c tests/moe/moe_ident.h \
	tests/pe/pe_test.h
tests_moe_moe_route_vote_LDADD = libs/moe/libgshmem_moe.la libgshmem.la
tests_moe_bad_moe_config_SOURCES = tests/moe/bad_moe_config.c
tests_moe_bad_moe_config_LDADD = libs/moe/libgshmem_moe.la libgshmem.la

TESTS += \
	tests/moe/moe_ll-np1.pe tests/moe/moe_ll-np2.pe tests/moe/moe_ll-np4.pe \
	tests/moe/moe_normal-np1.pe tests/moe/moe_normal-np2.pe tests/moe/moe_normal-np4.pe \
	tests/moe/moe_inflight-np2.pe tests/moe/moe_inflight-np4.pe \
	tests/moe/moe_zero_copy-np1.pe tests/moe/moe_zero_copy-np2.pe tests/moe/moe_zero_copy-np4.pe \
	tests/moe/bad_moe_destroyed-np2.pe tests/moe/bad_moe_garbage-np1.pe \
	tests/moe/bad_moe_config-np2.pe tests/moe/bad_moe_config-np4.pe \
	tests/moe/bad_moe_config_refused.sh \
	tests/moe/moe_handle_checks-np1.pe tests/moe/moe_handle_checks-np2.pe tests/moe/moe_handle_checks-np4.pe \
	tests/moe/moe_config_checks-np1.pe tests/moe/moe_config_checks-np2.pe tests/moe/moe_config_checks-np4.pe \
	tests/moe/moe_route_vote-np2.pe tests/moe/moe_route_vote-np4.pe

if HAVE_UCX
TESTS += \
	tests/moe/moe_ll-np1-net.net tests/moe/moe_ll-np2-net.net tests/moe/moe_ll-np4-net.net \
	tests/moe/moe_normal-np1-net.net tests/moe/moe_normal-np2-net.net \
	tests/moe/moe_normal-np4-net.net \
	tests/moe/moe_inflight-np2-net.net tests/moe/moe_inflight-np4-net.net \
	tests/moe/moe_zero_copy-np2-net.net tests/moe/moe_zero_copy-np4-net.net \
	tests/moe/moe_handle_checks-np2-net.net tests/moe/moe_route_vote-np2-net.net \
	tests/moe/bad_moe_config-np2-net.net tests/moe/bad_moe_destroyed-np2-net.net \
	tests/moe/bad_moe_garbage-np1-net.net
endif
