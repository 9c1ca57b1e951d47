#!/bin/sh
# The whole test suite: install what is missing, build, run `make check`
# (unit tests, header checks, multi-PE programs at 1, 2, 3 and 4 PEs, bad
# input cases), then print "N passed, N failed" on its own line.
cd "$(dirname "$0")/.." || exit 1
sh scripts/install-deps.sh || exit 1
sh scripts/build.sh || exit 1
make -j"$(nproc)" check >check.out 2>&1
status=$?
cat check.out | grep -E '^(PASS|FAIL|XFAIL|XPASS|ERROR|SKIP):' || true
count() { sed -n "s/^# $1: *\([0-9]*\)$/\1/p" check.out | awk '{s += $1} END {print s + 0}'; }
pass=$(( $(count PASS) + $(count XFAIL) ))
fail=$(( $(count FAIL) + $(count XPASS) + $(count ERROR) ))
skip=$(count SKIP)
if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then
    tail -40 check.out
    fail=1
fi
for log in $(grep -lE '^(FAIL|ERROR)' $(find tests -name '*.log' ! -name test-suite.log) 2>/dev/null); do
    echo "=== $log"; tail -20 "$log"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
