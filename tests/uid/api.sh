#!/bin/sh
# tests/uid/api.sh - the unique-id start (gshmemx_get_uniqueid,
# gshmemx_set_attr_uniqueid_args, gshmemx_init_attr) on 1, 2 and 4 PEs, and
# bad input, which must end every process concerned with a nonzero status and
# a clear line: a rank out of range, a corrupt id, nranks that differ between
# processes, a rank that never arrives, rank 0 unreachable, a bad interface,
# the environment mode's bad or missing variables (a malformed secret among
# them), and a rank whose secret is not rank 0's.  tests/uid/security.sh has
# the attacks (another user joining, squatting the port, stalling rank 0).
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
secret=$(new_secret)
expect_fail "GSHMEM_BOOTSTRAP=uid alone" 1 'needs GSHMEM_UID=<ip>:<port>:<secret>' \
    env GSHMEM_BOOTSTRAP=uid "$prog" env
expect_fail "GSHMEM_UID not ip:port:secret" 1 \
    'GSHMEM_UID="localhost" is not <IPv4 address>:<port>:<secret>' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=localhost GSHMEM_UID_RANK=0 GSHMEM_UID_SIZE=1 \
    "$prog" env
expect_fail "GSHMEM_UID's secret not 32 hex digits" 1 \
    "GSHMEM_UID's secret \(after <ip>:<port>:\) has 6 characters; it must be 32 hex digits" \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port:abc123 GSHMEM_UID_RANK=0 \
    GSHMEM_UID_SIZE=1 "$prog" env
if grep -q abc123 "$work/err"; then
    fail "GSHMEM_UID's secret not 32 hex digits: the error repeats the secret"
    show "$work/err"
fi
expect_fail "GSHMEM_UID_RANK out of range" 1 \
    'GSHMEM_UID_RANK=5 is out of range for GSHMEM_UID_SIZE=2' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port:$secret GSHMEM_UID_RANK=5 \
    GSHMEM_UID_SIZE=2 "$prog" env
expect_fail "GSHMEM_UID_SIZE differs (rank 0: 2, rank 1: 3)" 2 \
    'was started with nranks 3, rank 0 with nranks 2' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port:$secret sh -c \
    'GSHMEM_UID_SIZE=3 GSHMEM_UID_RANK=1 "$1" env & GSHMEM_UID_SIZE=2 GSHMEM_UID_RANK=0 "$1" env
     s=$?; wait $! || s=$?; exit $s' sh "$prog"
# Two processes that know the secret claim rank 1: a real mistake, which
# fails the job, naming both.
port=$(free_port)
expect_fail "rank 1 claimed twice by the job's own processes" 2 \
    'rank 1 was claimed twice, by two processes that know the job.s secret: pid [0-9]+ on .* and pid [0-9]+ on ' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port:$secret GSHMEM_UID_SIZE=3 \
    GSHMEM_UID_TIMEOUT=10 sh -c \
    'GSHMEM_UID_RANK=1 "$1" env & a=$!; GSHMEM_UID_RANK=1 "$1" env & b=$!
     GSHMEM_UID_RANK=0 "$1" env; s=$?; wait $a || s=$?; wait $b || s=$?; exit $s' sh "$prog"
# Rank 1 with another secret: rank 0 drops it and names it as missing, rank 1
# is told it did not prove the secret.  Neither repeats a secret.
port=$(free_port)
expect_fail "rank 1 has another secret" 3 \
    'dropped a connection from .*failed authentication|rank 1 never arrived|did not take this rank.s proof of the job.s secret' \
    env GSHMEM_BOOTSTRAP=uid GSHMEM_UID_SIZE=2 GSHMEM_UID_TIMEOUT=3 sh -c \
    'GSHMEM_UID=127.0.0.1:$2:$3 GSHMEM_UID_RANK=1 "$1" env &
     GSHMEM_UID=127.0.0.1:$2:$4 GSHMEM_UID_RANK=0 "$1" env
     s=$?; wait $! || s=$?; exit $s' sh "$prog" "$port" "$(new_secret)" "$secret"
if grep -q -e "$secret" "$work/err"; then
    fail "rank 1 has another secret: an error repeats the secret"
    show "$work/err"
fi
finish api.sh
