#!/bin/sh
# tests/compat/compile.sh - the NVSHMEM-named programs of tests/compat
# compile as CUDA (gshmemcc -x cu -c, for compute_90 PTX: the front end
# runs fully, ptxas does not) with warnings as errors, as an NVSHMEM program
# built against <gshmem/compat/nvshmem.h> would.  It needs no GPU; 77 (skip)
# in a build without CUDA.  (make check runs them on host lanes.)  Three of
# them are linked too: nv_driver (the driver API, no include) must need
# libcuda.so.1, nv_host and nv_hostcoll must not (nv_hostcoll's host calls
# of the team collectives need the device library's _on_stream routines).
set -u
src=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$src}
cc=$build/tools/gshmemcc
if [ ! -x "$cc" ] || ! "$cc" --showme:cuda >/dev/null 2>&1; then
    echo "compat compile: SKIP, not a build with CUDA"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-compat-cu.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
export GSHMEM_CUDA_GENCODE="-gencode arch=compute_90,code=compute_90"
# cicc's optimizer at -O0, as tests/gpu/compile.sh: the errors and warnings
# come from the front end, which runs the same; the unit takes half the time.
export GSHMEM_NVCCFLAGS="-Werror all-warnings -Xcicc -O0"
# The nv_mpi_ programs include mpi.h: mpicc's include folders, as system
# ones (MPI's headers are not ours to hold to -Werror), and no MPI C++
# bindings.  Without mpicc they are left out, and said so.
mpi_flags=
if command -v mpicc >/dev/null 2>&1; then
    for f in $(mpicc --showme:compile 2>/dev/null); do
        case $f in -I*) mpi_flags="$mpi_flags -isystem ${f#-I}" ;; *) mpi_flags="$mpi_flags $f" ;; esac
    done
fi
export NV_MPI_FLAGS="$mpi_flags -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX"
fails=0
n=0
for t in "$src"/tests/compat/nv_*.c; do
    case ${t##*/} in
    nv_mpi_*)
        if [ -z "$mpi_flags" ]; then
            echo "skip tests/compat/${t##*/} (no mpicc for mpi.h)"
            continue
        fi
        ;;
    esac
    n=$((n + 1))
    echo "tests/compat/${t##*/} $t t$n"
done > "$work/list"
# Two (or nproc, up to 4) at a time; each writes NAME.ok, and NAME.log.
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 4 ] && jobs=4
awk '{ print $2 " " $3 }' "$work/list" |
    xargs -P "$jobs" -L 1 sh -c 'case $3 in */nv_mpi_*) x=$NV_MPI_FLAGS ;; *) x= ;; esac
        if "$0" -x cu -c -I"$1/tests/compat" $x -Wall -Wextra -Werror "$3" \
        -o "$2/$4.o" > "$2/$4.log" 2>&1; then : > "$2/$4.ok"; fi' "$cc" "$src" "$work"
while read -r name t file; do
    if [ -f "$work/$file.ok" ]; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        grep -E -i 'error|warning' "$work/$file.log" | head -n 10 | cut -c 1-240 | sed 's/^/    /'
        fails=$((fails + 1))
    fi
done < "$work/list"

# Linked for sm_90 code: a device link of compute_90 PTX alone compiles the
# device library's PTX again (35 s a program here, against 4 s).
for t in nv_driver:yes nv_host:no nv_hostcoll:no; do
    prog=${t%%:*}
    want=${t#*:}
    if GSHMEM_CUDA_GENCODE="-gencode arch=compute_90,code=sm_90" "$cc" -x cu -I"$src/tests/compat" "$src/tests/compat/$prog.c" -o "$work/$prog" \
        > "$work/$prog.link.log" 2>&1; then
        if readelf -d "$work/$prog" | grep -q 'NEEDED.*libcuda\.so'; then got=yes; else got=no; fi
        if [ "$got" = "$want" ]; then
            echo "ok   tests/compat/$prog.c links as CUDA; needs libcuda.so.1: $got"
        else
            echo "FAIL tests/compat/$prog.c links as CUDA; needs libcuda.so.1: $got, expected $want"
            fails=$((fails + 1))
        fi
    else
        echo "FAIL tests/compat/$prog.c does not link as CUDA"
        grep -E -i 'error|undefined' "$work/$prog.link.log" | head -n 10 | cut -c 1-240 | sed 's/^/    /'
        fails=$((fails + 1))
    fi
done
echo "compat compile: $n programs as CUDA with warnings as errors, 3 linked, $fails failed"
[ "$fails" -eq 0 ] && [ "$n" -gt 0 ]
