#!/bin/sh
# tests/gpu/kit/nvshmem_run.sh NP DIR - run DIR/nvshmem_bench (built by
# nvshmem_build.sh, with its environment DIR/nvshmem.env) on NP PEs, 1 or 2,
# sharing GPU 0.  The 1-PE figures are the ones that matter: a 2-PE run
# that fails on one GPU exits 77 (SKIP) with its reason on the last line.
set -u
np=${1:?usage: nvshmem_run.sh NP DIR}
dir=${2:?usage: nvshmem_run.sh NP DIR}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$dir/nvshmem_bench" ] && [ -f "$dir/nvshmem.env" ] || {
    echo "SKIP: NVSHMEM benchmark not built"
    exit 77
}
# shellcheck disable=SC1091
. "$dir/nvshmem.env"
case $np in
1) NVB_RANK=0 NVB_SIZE=1 NVB_DIR=$dir exec "$dir/nvshmem_bench" ;;
2)
    sh "$here/../../../perftest/nvshmem/run2.sh" "$dir/nvshmem_bench" "$dir"
    rc=$?
    [ "$rc" -eq 0 ] && exit 0
    [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && exit "$rc"
    why=$(grep -h -m 1 -iE 'error|fail|abort' "$dir/nvshmem-rank1.out" 2>/dev/null | cut -c 1-100)
    echo "SKIP: NVSHMEM on 2 PEs sharing one GPU failed (exit $rc${why:+: $why})"
    exit 77
    ;;
*) echo "nvshmem_run.sh: NP must be 1 or 2, got '$np'"; exit 2 ;;
esac
