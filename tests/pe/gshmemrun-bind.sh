#!/bin/sh
# gshmemrun's binding (tools/gshmemrun.in): a job of one PE is not bound
# (mpirun binds every job from the first core, so one-PE jobs started apart
# on one host - a prefill and a decode server - all shared core 0); a
# --bind-to among the caller's options wins; a job of 2 PEs on 2 or more
# cores keeps mpirun's binding, one core per PE.  Read from each process's
# affinity mask (taskset -p).  Exit 77 on fewer than 2 cores, or without
# taskset.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
run=$build/tools/gshmemrun
command -v taskset >/dev/null 2>&1 || {
    echo "gshmemrun-bind.sh: SKIP: no taskset"
    exit 77
}
[ "$(nproc)" -ge 2 ] || {
    echo "gshmemrun-bind.sh: SKIP: fewer than 2 cores"
    exit 77
}

# The number of CPUs in a hex affinity mask.
bits() {
    m=$((0x$1)) n=0
    while [ $m -ne 0 ]; do
        n=$((n + (m & 1))) m=$((m >> 1))
    done
    echo $n
}

# The masks of the processes of one job, one per line.
masks() {
    timeout -k 5 60 "$run" "$@" sh -c 'taskset -p $$' 2>&1 | awk '/affinity mask/ {print $NF}'
}

fail=0
here=$(taskset -p $$ | awk '{print $NF}')
m=$(masks -np 1)
echo "gshmemrun-bind.sh: -np 1: mask $m (this shell's: $here)"
if [ "$m" != "$here" ]; then
    echo "gshmemrun-bind.sh: FAIL: a one-PE job was bound (mask $m, not $here)" >&2
    fail=1
fi
m=$(masks -np 1 --bind-to core)
echo "gshmemrun-bind.sh: -np 1 --bind-to core: mask $m"
if [ -z "$m" ] || [ "$(bits "$m")" -ne 1 ]; then
    echo "gshmemrun-bind.sh: FAIL: the caller's --bind-to core gave mask '$m', not one core" >&2
    fail=1
fi
n=0
for m in $(masks -np 2); do
    n=$((n + 1))
    echo "gshmemrun-bind.sh: -np 2: mask $m"
    if [ "$(bits "$m")" -ne 1 ]; then
        echo "gshmemrun-bind.sh: FAIL: a PE of a 2-PE job has mask $m, not one core" >&2
        fail=1
    fi
done
if [ $n -ne 2 ]; then
    echo "gshmemrun-bind.sh: FAIL: -np 2 printed $n masks, not 2" >&2
    fail=1
fi
exit $fail
