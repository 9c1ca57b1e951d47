#!/bin/sh
# tests/rdma/verbs.sh - run the tests of tests/rdma/verbs.list over the
# verbs transport, where an RDMA device is up (the soft-RoCE guest of
# tests/rdma/guest.sh: guest.sh --share "$PWD" -- sh tests/rdma/verbs.sh).
# Prints one line per test (PASS, FAIL or SKIP) and its log on failure;
# exits 0 when none failed, 77 when there is no active RDMA port.
#   verbs.sh [LIST]   (default tests/rdma/verbs.list)
set -u
list=${1:-tests/rdma/verbs.list}
if ! ls /sys/class/infiniband/*/ports/*/state 2>/dev/null | xargs -r cat | grep -q ACTIVE; then
    echo "SKIP: no active RDMA port"
    exit 77
fi
export GSHMEM_TRANSPORT=verbs GSHMEM_DISABLE_P2P=1
# ibv_reg_mr pins the whole heap: 4 PEs of the default 512M would not fit
# the guest's 3 GiB.
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-64M}
export GSHMEM_TEST_TIMEOUT=${GSHMEM_TEST_TIMEOUT:-300}
fail=0
for t in $(grep -v '^#' "$list"); do
    log=/tmp/verbs-test.$$.log
    tests/pe/run-pe "$t" >"$log" 2>&1
    rc=$?
    case $rc in
    0) echo "PASS: $t" ;;
    77) echo "SKIP: $t" ;;
    *) echo "FAIL: $t (exit $rc)"; sed 's/^/    /' "$log" | tail -n 20; fail=$((fail + 1)) ;;
    esac
    rm -f "$log"
done
echo "verbs.sh: $fail failed"
[ "$fail" -eq 0 ]
