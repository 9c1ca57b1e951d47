#!/bin/sh
# tests/uid/api.sh - the unique-id start (gshmemx_get_uniqueid,
# gshmemx_set_attr_uniqueid_args, gshmemx_init_attr) on 1, 2 and 4 PEs, and
# bad input, which must end every process concerned with a nonzero status and
# a clear line: a rank out of range, a corrupt id, nranks that differ between
# processes, a rank that never arrives, rank 0 unreachable, a bad interface,
# and the environment mode's bad or missing variables.
set -u
. "$(dirname "$0")/common.sh"

prog=$top_build/tests/uid/api
if [ ! -x "$prog" ]; then
    fail "$prog is not built"
    finish api.sh
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/uid-api.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
limit=${GSHMEM_TEST_TIMEOUT:-60}

for n in 1 2 4; do
    timeout -k 5 "$limit" "$prog" "$n" >"$work/out" 2>"$work/err"
    s=$?
    if [ $s -eq 0 ] && grep -q "^api: PASS on $n PEs" "$work/out" && ! grep -q . "$work/err"; then
        pass "gshmemx_init_attr on $n PEs"
    else
        fail "gshmemx_init_attr on $n PEs: status $s"
        show "$work/out" "$work/err"
    fi
done

# expect_fail WHAT MIN_LINES REGEX COMMAND...: COMMAND exits nonzero (not by
# the timeout) and at least MIN_LINES lines of its stderr match REGEX.
expect_fail() {
    what=$1 min=$2 re=$3
    shift 3
    timeout -k 5 "$limit" "$@" >"$work/out" 2>"$work/err"
    s=$?
    got=$(grep -E -c -e "$re" "$work/err")
    if [ $s -eq 124 ] || [ $s -eq 137 ]; then
        fail "$what: timed out after $limit s"
    elif [ $s -eq 0 ]; then
        fail "$what: exited 0"
    elif [ "$got" -lt "$min" ]; then
        fail "$what: exited $s, but $got line(s) of stderr match /$re/, expected $min"
    else
        pass "$what: exited $s with $got line(s) like: $(grep -E -m1 -e "$re" "$work/err")"
        return
    fi
    show "$work/out" "$work/err"
}

expect_fail "rank out of range" 1 \
    'gshmemx_set_attr_uniqueid_args: rank 4 is out of range for nranks 4' "$prog" bad-rank
expect_fail "corrupt id" 1 'the unique id is corrupt' "$prog" bad-uid
expect_fail "nranks differ (rank 0: 2, rank 1: 3)" 2 \
    'rank 1 \(pid [0-9]+ on .*\) was started with nranks 3, rank 0 with nranks 2' \
    "$prog" bad-nranks
expect_fail "rank 2 never arrives" 2 \
    'rank 0 waited 2 s \(GSHMEM_UID_TIMEOUT\) .*rank 2 never arrived' \
    env GSHMEM_UID_TIMEOUT=2 "$prog" missing
expect_fail "rank 0 unreachable" 1 \
    'rank 1: rank 0 was unreachable at [0-9.]+:[0-9]+ for 1 s \(GSHMEM_UID_TIMEOUT\)' \
    env GSHMEM_UID_TIMEOUT=1 "$prog" unreachable
expect_fail "no such interface" 1 'GSHMEM_UID_IFNAME=gshmem-none0 names no interface' \
    env GSHMEM_UID_IFNAME=gshmem-none0 "$prog" 1

# The environment mode.
port=$(free_port)
expect_fail "GSHMEM_BOOTSTRAP=uid alone" 1 'needs GSHMEM_UID=<ip>:<port>' \
    env GSHMEM_BOOTSTRAP=uid "$prog" env
expect_fail "GSHMEM_UID not ip:port" 1 'GSHMEM_UID="localhost" is not <IPv4 address>:<port>' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=localhost GSHMEM_UID_RANK=0 GSHMEM_UID_SIZE=1 \
    "$prog" env
expect_fail "GSHMEM_UID_RANK out of range" 1 \
    'GSHMEM_UID_RANK=5 is out of range for GSHMEM_UID_SIZE=2' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port GSHMEM_UID_RANK=5 GSHMEM_UID_SIZE=2 \
    "$prog" env
expect_fail "GSHMEM_UID_SIZE differs (rank 0: 2, rank 1: 3)" 2 \
    'was started with nranks 3, rank 0 with nranks 2' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port sh -c \
    'GSHMEM_UID_SIZE=3 GSHMEM_UID_RANK=1 "$1" env & GSHMEM_UID_SIZE=2 GSHMEM_UID_RANK=0 "$1" env
     s=$?; wait $! || s=$?; exit $s' sh "$prog"
finish api.sh
