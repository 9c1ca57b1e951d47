#!/bin/sh
# tests/gpu/float16_ref.sh - the host-lane bfloat16 and half conversions
# give CUDA's bits (float16_ref.cpp, built with the host C++ compiler and
# the CUDA headers of the build; no GPU, no nvcc run).  Every 61st float
# pattern by default; GSHMEM_F16_REF_STRIDE=1 checks all 2^32 (a minute).
# Exit 77 (skip) in a build without CUDA or without g++.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${GSHMEM_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$here/../.." && pwd)}
cuda=$(sed -n 's/^#define GSHMEM_CUDA_HOME "\(.*\)"$/\1/p' "$build/config.h" 2>/dev/null)
if [ -z "$cuda" ] || [ ! -r "$cuda/include/cuda_fp16.h" ] || ! command -v g++ > /dev/null; then
    echo "float16_ref: SKIP, not a build with CUDA (or no g++)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-f16.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
if ! g++ -std=c++11 -O2 -Wall -Wextra -Werror -I"$cuda/include" -I"$src/include" \
    "$here/float16_ref.cpp" -o "$work/ref" 2> "$work/err"; then
    head -20 "$work/err"
    echo "float16_ref: FAIL, does not compile"
    exit 1
fi
"$work/ref" "${GSHMEM_F16_REF_STRIDE:-61}"
