#!/bin/sh
# tests/gpu/compile.sh - the CUDA half of the device API compiles cleanly:
# every device header on its own (gshmem_device.h and device/gsd/*.h) and
# every tests/device program as CUDA (nvcc -x cu), for sm_90, with warnings
# as errors (nvcc's -Werror all-warnings, and the host compiler's -Wall
# -Wextra -Werror), through the build tree's gshmemcc.  It needs no GPU.
#
# By default the device side stops at compute_90 PTX: the front end (where
# the C++ errors and warnings are) runs fully, ptxas does not, as it spends
# minutes on each test program (their kernels inline every routine of every
# type).  For the same reason cicc's optimizer runs at -O0 (-Xcicc -O0): it
# took 18 s of a unit's 45 (tests/device/rma.c: cicc 39 s at its default,
# 21 s at -O0; the whole unit 30 s), and the errors and warnings come from
# the front end, which runs the same.
# GSHMEM_GPU_COMPILE_SASS=1 builds optimized sm_90 SASS instead (ptxas
# checks the inline PTX of gsd/arch.h; so does the build of
# libgshmem_device.a).
# Exit status 0 when all compile; 77 (skip) in a build without CUDA.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${GSHMEM_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$here/../.." && pwd)}
cc=$build/tools/gshmemcc

if [ ! -x "$cc" ] || ! "$cc" --showme:cuda >/dev/null 2>&1; then
    echo "compile: SKIP, not a build with CUDA"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-cu.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
if [ "${GSHMEM_GPU_COMPILE_SASS:-0}" = 1 ]; then
    export GSHMEM_CUDA_GENCODE="-gencode arch=compute_90,code=sm_90"
    export GSHMEM_NVCCFLAGS="-Werror all-warnings"
else
    export GSHMEM_CUDA_GENCODE="-gencode arch=compute_90,code=compute_90"
    export GSHMEM_NVCCFLAGS="-Werror all-warnings -Xcicc -O0"
fi

# One translation unit per header: included twice (guards), then a kernel
# so the unit is not empty.
n=0
for h in "$src/device/gshmem_device.h" "$src"/device/gsd/*.h; do
    rel=${h#"$src/device/"}
    n=$((n + 1))
    printf '#include "%s"\n#include "%s"\n__global__ void compile_check_kernel(int *p) { *p = 1; }\n' \
        "$rel" "$rel" > "$work/h$n.cu"
    echo "$rel h$n.cu"
done > "$work/list"
for t in "$src"/tests/device/*.c; do
    [ -f "$t" ] || continue
    n=$((n + 1))
    cp "$t" "$work/t$n.cu"
    echo "tests/device/${t##*/} t$n.cu"
done >> "$work/list"

# Up to 4 at a time; each writes NAME.ok, and NAME.log.
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 4 ] && jobs=4
awk '{ print $2 }' "$work/list" |
    xargs -P "$jobs" -I{} sh -c 'cd "$3" && if "$1" -c -I"$2/device" -I"$2/tests/device" \
        -I"$2/tests/pe" -Wall -Wextra -Werror {} -o {}.o > {}.log 2>&1; then : > {}.ok; fi' \
        sh "$cc" "$src" "$work"

fails=0
while read -r name file; do
    if [ -f "$work/$file.ok" ]; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        # nvcc echoes whole macro expansions: keep each line short.
        grep -E -i 'error|warning' "$work/$file.log" | head -n 10 | cut -c 1-240 | sed 's/^/    /'
        fails=$((fails + 1))
    fi
done < "$work/list"
echo "compile: $n units for sm_90 ($GSHMEM_CUDA_GENCODE $GSHMEM_NVCCFLAGS) with warnings as errors, $fails failed"
[ "$fails" -eq 0 ]
