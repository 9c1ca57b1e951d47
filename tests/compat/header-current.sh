#!/bin/sh
# tests/compat/header-current.sh - include/gshmem/compat/nvshmem.h is what
# scripts/gen_compat.py writes from the headers now, so every name gshmem
# declares has its NVSHMEM spelling.  The generator needs nvcc (the header
# is made from the CUDA view too): 77 (skip) in a build without CUDA.
set -u
src=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$src}
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
    echo "header-current: SKIP, no $python"
    exit 77
fi
if [ ! -x "$build/tools/gshmemcc" ] || ! "$build/tools/gshmemcc" --showme:cuda >/dev/null 2>&1; then
    echo "header-current: SKIP, not a build with CUDA (gen_compat.py needs nvcc)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-compat.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
"$python" "$src/scripts/gen_compat.py" --build "$build" -o "$work/nvshmem.h" || exit 1
if cmp -s "$work/nvshmem.h" "$src/include/gshmem/compat/nvshmem.h"; then
    echo "include/gshmem/compat/nvshmem.h is current"
    exit 0
fi
echo "include/gshmem/compat/nvshmem.h is stale: run python3 scripts/gen_compat.py"
diff "$src/include/gshmem/compat/nvshmem.h" "$work/nvshmem.h" | head -n 20 | sed 's/^/    /'
exit 1
