#!/bin/sh
# The storage tier's GPU path (libs/kv/kv_cuda.c, kv_stage.c) on a
# stand-in CUDA driver: builds tests/kv/fake_cuda.c as libcuda.so.1 in a
# scratch folder, puts it first on LD_LIBRARY_PATH, and runs
# tests/kv/kv_file_gpu (one PE, no launcher) with each I/O engine.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
src=${GSHMEM_TOP_SRCDIR:-$build}
d=$(mktemp -d) || exit 99
trap 'rm -rf "$d"' EXIT
${CC:-cc} -shared -fPIC -O2 -o "$d/libcuda.so.1" "$src/tests/kv/fake_cuda.c" || exit 99
fail=0
for engine in auto posix; do # auto: io_uring where it works
    echo "kv-file-gpu.sh: GSHMEM_KV_FILE_ENGINE=$engine"
    LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} GSHMEM_KV_FILE_ENGINE=$engine \
        timeout -k 10 "${GSHMEM_TEST_TIMEOUT:-60}" "$build/tests/kv/kv_file_gpu"
    rc=$?
    [ $rc -eq 77 ] && exit 77
    [ $rc -eq 0 ] || fail=1
done
exit $fail
