#!/bin/sh
# perftest/nvshmem/run2.sh BENCH DIR - run NVSHMEM's benchmark on 2 PEs that
# share GPU 0, without a launcher: rank 0 writes the unique id to
# DIR/nvshmem.uid, rank 1 reads it (nvshmem_bench.cu).  Exit: the first
# nonzero status, else 0.
set -u
bench=${1:?usage: run2.sh BENCH DIR}
dir=${2:?usage: run2.sh BENCH DIR}
rm -f "$dir/nvshmem.uid"
NVB_RANK=0 NVB_SIZE=2 NVB_DIR=$dir "$bench" &
p0=$!
NVB_RANK=1 NVB_SIZE=2 NVB_DIR=$dir "$bench" > "$dir/nvshmem-rank1.out" 2>&1 &
p1=$!
wait "$p0"
s0=$?
wait "$p1"
s1=$?
[ "$s1" -ne 0 ] && sed 's/^/rank 1: /' "$dir/nvshmem-rank1.out"
[ "$s0" -ne 0 ] && exit "$s0"
exit "$s1"
