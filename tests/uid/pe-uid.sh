#!/bin/sh
# tests/uid/pe-uid.sh - tests/uid/boot (the bootstrap alone) and tests/pe
# programs started without mpirun, by
# tests/uid/uidrun (the unique-id bootstrap's environment mode, all PEs on
# this host), on 2 and 4 PEs: each must pass and print no gshmem line (a
# normal shmem_finalize must not look like a dead PE).  Then
# shmem_global_exit through the bootstrap: bad_global_exit on 3 PEs ends the
# job with status 3, and PEs 0 and 1 each print that PE 2 called it.
# Then a bootstrap allgather that one PE never reaches (bad_wait_boot_allgather
# on 2 and 3 PEs: rank 0 waits for a rank, and on 3 a rank waits for rank 0's
# answer) ends the job after GSHMEM_WAIT_TIMEOUT=5 s with a line saying so.
# PE_UID_PROGS and PE_UID_NP override the programs and the PE counts.
set -u
. "$(dirname "$0")/common.sh"

progs=${PE_UID_PROGS:-"boot rma amo barrier signal"}
nps=${PE_UID_NP:-"2 4"}
limit=${GSHMEM_TEST_TIMEOUT:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/pe-uid.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

for p in $progs; do
    case $p in
    boot) exe=$top_build/tests/uid/boot ;;
    *) exe=$top_build/tests/pe/$p ;;
    esac
    if [ ! -x "$exe" ]; then
        fail "$exe is not built"
        continue
    fi
    for np in $nps; do
        timeout -k 5 "$limit" "$uidrun" -np "$np" "$exe" >"$work/out" 2>"$work/err"
        s=$?
        if [ $s -eq 77 ]; then
            skip "$p on $np PEs: $(tail -n 1 "$work/out")"
        elif [ $s -ne 0 ]; then
            fail "$p on $np PEs: status $s$([ $s -eq 124 ] && echo " (timed out after $limit s)")"
            show "$work/out" "$work/err"
        elif grep -q '^gshmem: ' "$work/err"; then
            fail "$p on $np PEs: passed, but the library printed:"
            show "$work/err"
        else
            pass "$p on $np PEs: $(tail -n 1 "$work/out")"
        fi
    done
done

exe=$top_build/tests/pe/bad_global_exit
if [ -x "$exe" ]; then
    timeout -k 5 "$limit" "$uidrun" -np 3 "$exe" >"$work/out" 2>"$work/err"
    s=$?
    lines=$(grep -E -c '^gshmem: PE [01]: PE 2 called shmem_global_exit\(3\)' "$work/err")
    if [ $s -eq 3 ] && [ "$lines" -eq 2 ] && ! grep -q 'left the barrier' "$work/err"; then
        pass "shmem_global_exit(3) on PE 2 of 3: status 3, PEs 0 and 1 named PE 2"
    else
        fail "shmem_global_exit(3) on PE 2 of 3: status $s (expected 3), $lines of 2 lines"
        show "$work/err"
    fi
else
    fail "tests/pe/bad_global_exit is not built"
fi
exe=$top_build/tests/pe/bad_wait_boot_allgather
for np in 2 3; do
    [ -x "$exe" ] || {
        fail "tests/pe/bad_wait_boot_allgather is not built"
        break
    }
    started=$(date +%s)
    timeout -k 5 "$limit" "$uidrun" -np "$np" "$exe" >"$work/out" 2>"$work/err"
    s=$?
    took=$(($(date +%s) - started))
    if [ $s -ne 0 ] && [ $s -ne 124 ] && [ $took -lt 30 ] &&
        grep -E -q "^gshmem: PE [0-9]+: shmem_malloc: cannot check the allocation's symmetry: uid: waited more than GSHMEM_WAIT_TIMEOUT=5 s for every PE to reach exchange [0-9]+" "$work/err"; then
        pass "an allgather one PE of $np never reaches: status $s after $took s, with the line"
    else
        fail "an allgather one PE of $np never reaches: status $s after $took s (expected the timeout's line within 30 s)"
        show "$work/err"
    fi
done
finish pe-uid.sh
