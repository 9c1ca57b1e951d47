#!/bin/sh
# The whole test suite: install what is missing, build, run `make check`
# (unit tests, header checks, multi-PE programs at 1, 2, 3 and 4 PEs, bad
# input cases), then the soft-RoCE rig on its own (tests/rdma/rig.tap), then
# the sanitizer builds (scripts/sanitize.sh: ASan and
# UBSan over the unit tests and a 2-PE subset, TSan over the host-lane device
# tests; their results are appended to check.out and counted with the rest),
# then print "N passed, N failed, N skipped" on its own line.
# A skipped test's line carries its reason: "SKIP: NAME (REASON)", REASON
# being what follows "SKIP" on the first line of NAME's log that has it (a
# test that exits 77 prints such a line first, e.g. "gpu: SKIP, no GPU here").
cd "$(dirname "$0")/.." || exit 1
sh scripts/install-deps.sh --tests || exit 1
sh scripts/build.sh || exit 1
make -j"$(nproc)" check GSHMEM_RIG_TESTS= >check.out 2>&1
status=$?
# The soft-RoCE guest alone, with both cores (tests/rdma/local.mk says why).
make check TESTS=tests/rdma/rig.tap >>check.out 2>&1 || status=1
sh scripts/sanitize.sh >>check.out 2>&1

# skip_reason NAME: why test NAME skipped, from its log (tests/x/y.sh, .pe and
# .net write tests/x/y.log, and _san/B/tests/x/y.pe _san/B/tests/x/y.log; the
# harness's own "SKIP NAME (exit status: 77)" line does not count).  A TAP
# test's result carries its own: "NAME N TEST # SKIP REASON", or
# "NAME - REASON" for a whole skipped plan.
skip_reason() {
    case $1 in
    *" # SKIP "*) echo "${1##* # SKIP }"; return ;;
    *.tap" - "*) echo "${1#* - }"; return ;;
    esac
    case $1 in
    *.sh | *.pe | *.net) log=${1%.*}.log ;;
    *) log=$1.log ;;
    esac
    [ -r "$log" ] || { echo "no $log"; return; }
    awk '/SKIP/ && !/^SKIP .*\(exit status: 77\)$/ {
        s = substr($0, index($0, "SKIP") + 4)
        sub(/^[:,]?[ \t]*/, "", s); sub(/[ \t]+$/, "", s)
        if (s != "") { print s; found = 1; exit }
    }
    END { if (!found) print "no reason given in " FILENAME }' "$log"
}

grep -E '^(PASS|FAIL|XFAIL|XPASS|ERROR|SKIP):' check.out | while IFS= read -r line; do
    case $line in
    "SKIP: "*) echo "$line ($(skip_reason "${line#SKIP: }"))" ;;
    *) echo "$line" ;;
    esac
done
count() { sed -n "s/^# $1: *\([0-9]*\)$/\1/p" check.out | awk '{s += $1} END {print s + 0}'; }
pass=$(( $(count PASS) + $(count XFAIL) ))
fail=$(( $(count FAIL) + $(count XPASS) + $(count ERROR) ))
skip=$(count SKIP)
if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then
    tail -40 check.out
    fail=1
fi
for log in $(grep -lE '^(FAIL|ERROR)' $(find tests _san/*/tests _san/*.log -name '*.log' \
        ! -name test-suite.log 2>/dev/null) 2>/dev/null); do
    echo "=== $log"; tail -20 "$log"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
