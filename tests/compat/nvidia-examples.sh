#!/bin/sh
# tests/compat/nvidia-examples.sh - build NVIDIA's own NVSHMEM examples and
# perftests, unchanged, against gshmem's compatibility header:
#
#   sh tests/compat/nvidia-examples.sh NVSHMEM_SRC_DIR [WORK_DIR]
#
# NVSHMEM_SRC_DIR holds NVSHMEM's examples/ and perftest/ (e.g. from a clone:
# git archive HEAD examples perftest | tar -x -C DIR).  Each program is
# compiled as CUDA by the build tree's gshmemcc -x cu for sm_90 and linked
# (the device link with libgshmem_device.a), with headers named nvshmem.h
# and nvshmemx.h that only include <gshmem/compat/nvshmem.h>; a perftest
# program is linked with perftest/common/utils.cu, as NVSHMEM's build does.
# It prints one line a program: the program, ok or FAIL, and the first error
# line.  Not part of make check: the sources are not in the tree, and the
# whole set takes some 15 minutes on two cores.
#
#   NVML_INCLUDE   a directory with nvml.h (perftest/common/utils.h includes
#                  it; CUDA's toolkit may not ship it: pip's nvidia-nvml-dev
#                  has it under nvidia/cu13/include)
#   JOBS           programs built at once (default 2)
#   ONLY           a pattern: build only the programs whose path matches it
set -u
nv=${1:?usage: nvidia-examples.sh NVSHMEM_SRC_DIR [WORK_DIR]}
nv=$(cd "$nv" && pwd) || exit 2
src=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$src}
cc=$build/tools/gshmemcc
if [ ! -x "$cc" ] || ! "$cc" --showme:cuda >/dev/null 2>&1; then
    echo "nvidia-examples: $cc is not a gshmemcc with CUDA" >&2
    exit 2
fi
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/gshmem-nvex.XXXXXX")}
mkdir -p "$work/inc" || exit 2
for h in nvshmem.h nvshmemx.h; do
    printf '#include <gshmem/compat/nvshmem.h>\n' > "$work/inc/$h"
done
# sm_90 code (a link of PTX alone would compile the device library again);
# cicc at -O0, as tests/compat/compile.sh: the front end's errors are what
# this looks for, and the device link still needs every symbol.
export GSHMEM_CUDA_GENCODE="-gencode arch=compute_90,code=sm_90"
export GSHMEM_NVCCFLAGS="${GSHMEM_NVCCFLAGS:--Xcicc -O0}"
inc="-I$work/inc"
[ -n "${NVML_INCLUDE:-}" ] && inc="$inc -I$NVML_INCLUDE"
mpi_c=$(mpicxx --showme:compile 2>/dev/null || true)
mpi_l=$(mpicxx --showme:link 2>/dev/null || true)

# The programs: examples/*.cu|cpp, examples/gemm_allreduce/*.cu,
# perftest/{device,host}/*/*.cu|cpp.
(cd "$nv" && find examples perftest/device perftest/host -name '*.cu' -o -name '*.cpp' |
    grep -v '^perftest/common' | sort) > "$work/list"
[ -n "${ONLY:-}" ] && { grep -e "$ONLY" "$work/list" > "$work/list.1"; mv "$work/list.1" "$work/list"; }

# utils.cu once, as every perftest program's second unit.
if grep -q '^perftest/' "$work/list"; then
    "$cc" -x cu -c $inc -I"$nv/perftest/common" "$nv/perftest/common/utils.cu" \
        -o "$work/utils.o" > "$work/utils.log" 2>&1 || : > "$work/utils.failed"
fi

# build ONE: compile and link one program; NAME.log, NAME.ok when it links.
cat > "$work/one.sh" <<'EOF'
set -u
nv=$1 work=$2 cc=$3 prog=$4
shift 4
name=$(echo "$prog" | tr / _)
dir=$(dirname "$nv/$prog")
extra=
link=
grep -q 'mpi\.h' "$nv/$prog" && { extra="$MPI_C"; link="$MPI_L"; }
case "$prog" in
    perftest/*)
        extra="$extra -I$nv/perftest/common"
        link="$link $work/utils.o"
        if [ -f "$work/utils.failed" ]; then
            { echo "perftest/common/utils.cu does not compile:"; cat "$work/utils.log"; } > "$work/$name.log"
            exit 0
        fi
        ;;
esac
{
    "$cc" -x cu -c "$@" $extra -I"$dir" "$nv/$prog" -o "$work/$name.o" &&
        "$cc" "$work/$name.o" $link -o "$work/$name"
} > "$work/$name.log" 2>&1 && : > "$work/$name.ok"
exit 0
EOF
export MPI_C="$mpi_c" MPI_L="$mpi_l"
xargs -P "${JOBS:-2}" -I{} nice sh "$work/one.sh" "$nv" "$work" "$cc" {} $inc < "$work/list"

ok=0
n=0
printf '%-60s %-4s %s\n' program result 'first error'
while read -r prog; do
    n=$((n + 1))
    name=$(echo "$prog" | tr / _)
    # NVSHMEM's own CMakeLists.txt (the program's folder or examples/) may
    # not build it: said, as such a program need not build with NVSHMEM.
    note=
    d=$(dirname "$nv/$prog")
    grep -q "$(basename "$prog")" "$d/CMakeLists.txt" "$nv/examples/CMakeLists.txt" 2>/dev/null ||
        note=" [not in NVSHMEM's CMakeLists.txt]"
    if [ -f "$work/$name.ok" ]; then
        ok=$((ok + 1))
        printf '%-60s %-4s%s\n' "$prog" ok "$note"
    else
        err=$(grep -m 1 -E 'error|undefined reference|fatal' "$work/$name.log" | cut -c 1-200)
        printf '%-60s %-4s %s%s\n' "$prog" FAIL "${err:-see $work/$name.log}" "$note"
    fi
done < "$work/list"
echo "nvidia-examples: $ok of $n build; logs in $work"
