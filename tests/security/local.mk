# tests/security/: no other local user may reach a job's memory.
# shm_modes.sh runs as root (it makes two users; otherwise it skips): a job
# of one user holds still (hold) while another user of the same group tries
# its segments, files and sockets (intrude).
check_PROGRAMS += tests/security/hold tests/security/intrude
tests_security_hold_SOURCES = tests/security/hold.c
tests_security_hold_LDADD = libgshmem.la
tests_security_intrude_SOURCES = tests/security/intrude.c
TESTS += tests/security/shm_modes.sh
EXTRA_DIST += tests/security/shm_modes.sh
