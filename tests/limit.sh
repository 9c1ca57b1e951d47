#!/bin/sh
# tests/limit.sh - the Automake harness runs every test that has no runner of
# its own through this (LOG_COMPILER, SH_LOG_COMPILER, TAP_LOG_COMPILER in
# Makefile.am): it runs the test under `timeout`, so that a test that hangs
# fails with one line instead of holding the whole suite (and CI) until its
# own limit.  The .pe and .net tests have theirs in tests/pe/run-pe.
#
#   GSHMEM_TEST_LIMIT  seconds one such test may run (default 900: the
#                      longest, the Slurm and soft-RoCE rigs, take 3 to 8
#                      minutes on two cores)
#
# The test's own exit status passes through; past the limit the test and
# every process of its group get SIGTERM, then SIGKILL 10 s later, and the
# status is 124 (a FAIL for the harness, as for run-pe).
set -u
test=${1:?usage: limit.sh TEST [ARGS...]}
limit=${GSHMEM_TEST_LIMIT:-900}
case $limit in
'' | *[!0-9]*)
    echo "limit.sh: GSHMEM_TEST_LIMIT=$limit: not a number of seconds" >&2
    exit 99
    ;;
esac
case $test in
*/*) ;;
*) test=./$test ;;
esac
shift
timeout -k 10 "$limit" "$test" "$@"
status=$?
if [ $status -eq 124 ]; then
    echo "limit.sh: $test: still running after $limit s (GSHMEM_TEST_LIMIT), stopped" >&2
fi
exit $status
