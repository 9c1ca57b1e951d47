#!/bin/sh
# The storage tier's GPU path (libs/kv/kv_cuda.c, kv_stage.c, kv_gds.c)
# on a stand-in CUDA driver: builds tests/kv/fake_cuda.c as libcuda.so.1
# (and fake_cufile.c as libcufile.so.0, in a folder of its own) in a
# scratch folder, puts it first on LD_LIBRARY_PATH, and runs
# tests/kv/kv_file_gpu (one PE, no launcher): staged with each I/O engine,
# then through the stand-in cuFile; then tests/kv/kv_gpu_net (GPU layouts
# between PEs and with peers outside the job).  KV_GPU_NET_ONLY=1 runs only
# kv_gpu_net (the soft-RoCE rig, whose read-only root has no scratch file
# system for the tier, runs it over verbs).
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
src=${GSHMEM_TOP_SRCDIR:-$build}
d=$(mktemp -d) || exit 99
trap 'rm -rf "$d"' EXIT
mkdir "$d/gds" || exit 99
${CC:-cc} -shared -fPIC -O2 -o "$d/libcuda.so.1" "$src/tests/kv/fake_cuda.c" || exit 99
${CC:-cc} -shared -fPIC -O2 -o "$d/gds/libcufile.so.0" "$src/tests/kv/fake_cufile.c" -ldl || exit 99
fail=0
# Staged (no cuFile) with each engine, then through the stand-in cuFile.
runs="auto:$d posix:$d auto:$d/gds:$d"
[ "${KV_GPU_NET_ONLY:-}" = 1 ] && runs=
for run in $runs; do
    set -- "${run%%:*}" "${run#*:}"
    echo "kv-file-gpu.sh: GSHMEM_KV_FILE_ENGINE=$1, LD_LIBRARY_PATH=$2"
    LD_LIBRARY_PATH=$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} GSHMEM_KV_FILE_ENGINE=$1 \
        timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" "$build/tests/kv/kv_file_gpu"
    rc=$?
    [ $rc -eq 77 ] && exit 77
    [ $rc -eq 0 ] || fail=1
done
# GPU layouts between PEs and with peers outside the job (kv_gpu_net).
echo "kv-file-gpu.sh: kv_gpu_net"
LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" "$build/tests/kv/kv_gpu_net"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || fail=1
exit $fail
