# tests/uid/ and tests/netns/: the unique-id bootstrap without a launcher.
#   boot        the bootstrap alone (allgathers, barriers), below the library
#   api.sh      gshmemx_get_uniqueid/gshmemx_init_attr on 1, 2, 4 PEs, and
#               bad input (rank, nranks, id, timeout, environment mode and
#               its secret)
#   pe-uid.sh   tests/pe programs on 2 and 4 PEs started by tests/uid/uidrun
#               (no mpirun), and shmem_global_exit through the bootstrap
#   dead_pe.sh  a PE killed mid-run: the others end, naming it, within 10 s
#   security.sh another local user (made as root; a skip elsewhere) attacks
#               the rendezvous with tests/uid/intruder: joining, holding
#               rank 0's port, stalling rank 0; and no secret is refused
#   run.sh      tests/pe programs across network namespaces (root only;
#               prints a skip and exits 77 elsewhere)
# tests/uid/uidrun also serves as GSHMEM_TEST_LAUNCHER for tests/pe/run-pe.
check_PROGRAMS += tests/uid/api tests/uid/dead_pe tests/uid/boot tests/uid/intruder
tests_uid_api_SOURCES = tests/uid/api.c
tests_uid_api_LDADD = libgshmem.la
tests_uid_dead_pe_SOURCES = tests/uid/dead_pe.c
tests_uid_dead_pe_LDADD = libgshmem.la
tests_uid_boot_SOURCES = tests/uid/boot.c
tests_uid_boot_LDADD = libgshmem_core.la
# No library: it writes the protocol's bytes itself, as a stranger would.
tests_uid_intruder_SOURCES = tests/uid/intruder.c
TESTS += tests/uid/api.sh tests/uid/pe-uid.sh tests/uid/dead_pe.sh tests/uid/security.sh \
	tests/netns/run.sh
EXTRA_DIST += tests/uid/common.sh tests/uid/uidrun tests/uid/api.sh tests/uid/pe-uid.sh \
	tests/uid/dead_pe.sh tests/uid/security.sh tests/netns/run.sh
