#!/bin/sh
# tests/gpu/run.sh [BUILDDIR] - the device-API tests on a real GPU.
#
# Builds every tests/device/*.c program as CUDA (gshmemcc -x cu: nvcc with
# relocatable device code, device link with libgshmem_device.a) for the
# GPU found here, then runs each on 2 PEs that share that GPU, and prints
# one line per test:
#
#   PASS rma (2 PEs, 14 s)
#   FAIL wait (exit 1, 2 PEs): FAIL PE 1: gshmem_int_wait_until: ...
#
# A program whose name starts with bad_ must fail with a line matching its
# /* EXPECT: <regex> */ (stdout and stderr: device printf goes to stdout).
# Exit status: 0 all passed, 1 some failed, 77 skipped: without a GPU (or a
# build without CUDA) it prints one line saying so.
#
# BUILDDIR (default $GSHMEM_TOP_BUILDDIR, else this tree) is a configured
# and built gshmem.  Environment:
#   GSHMEM_GPU_TESTS     the programs to run (names without .c; default all)
#   GSHMEM_GPU_NP        PEs per test (default 2)
#   GSHMEM_GPU_NET=1     also run each with GSHMEM_DISABLE_P2P=1 (proxy + UCX;
#                        needs UCX built with CUDA support)
#   GSHMEM_GPU_TIMEOUT   seconds per test (default 120)
#   GSHMEM_GPU_PTXAS_O   ptxas optimization level of the test builds (default 0)
#   GSHMEM_TEST_LAUNCHER the launcher (default mpirun)
#   CUDA_VISIBLE_DEVICES which GPU the PEs share (default the first one)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${GSHMEM_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
build=${1:-${GSHMEM_TOP_BUILDDIR:-$(cd "$here/../.." && pwd)}}
cc=$build/tools/gshmemcc
np=${GSHMEM_GPU_NP:-2}
limit=${GSHMEM_GPU_TIMEOUT:-120}
launcher=${GSHMEM_TEST_LAUNCHER:-mpirun}

if [ ! -x "$cc" ] || ! "$cc" --showme:cuda >/dev/null 2>&1; then
    echo "gpu: SKIP, $build is not a gshmem build with CUDA (configure found no nvcc, or --without-cuda)"
    exit 77
fi

# A GPU: the driver library, and a device it lists.
have_libcuda() {
    ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' && return 0
    for d in $(echo "${LD_LIBRARY_PATH:-}" | tr ':' ' ') /usr/lib/x86_64-linux-gnu /usr/lib64 \
        /usr/lib/aarch64-linux-gnu; do
        [ -e "$d/libcuda.so.1" ] && return 0
    done
    return 1
}
gpu=no
if have_libcuda; then
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi -L 2>/dev/null | grep -q '^GPU' && gpu=yes
    elif [ -e /dev/nvidia0 ]; then
        gpu=yes
    fi
fi
if [ "$gpu" = no ]; then
    echo "gpu: SKIP, no GPU here (no libcuda.so.1 or no device listed by nvidia-smi)"
    exit 77
fi
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"

# Build for this GPU only (much faster than the library's three targets),
# and with ptxas at -O0: a test program inlines every routine of every type,
# and ptxas -O3 spends over 10 minutes on the largest (rma.c); -O0 about 1.5.
export GSHMEM_NVCCFLAGS="${GSHMEM_NVCCFLAGS:-} -Xptxas -O${GSHMEM_GPU_PTXAS_O:-0}"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | head -n 1 |
      tr -d ' .')
case $cap in
    [0-9][0-9]|[0-9][0-9][0-9]) export GSHMEM_CUDA_GENCODE="-gencode arch=compute_$cap,code=sm_$cap" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-gpu.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root

# Less the host-lane tests of gshmemx_culibrary_init (a dlopen handle; the
# library culib_kernel.c has no main).
progs=${GSHMEM_GPU_TESTS:-$(cd "$src/tests/device" && ls ./*.c 2>/dev/null | sed 's|^\./||; s|\.c$||' |
    grep -Ev '^(culib_kernel|culibrary|bad_culib_twice|bad_cumodule_fini)$')}
if [ -z "$progs" ]; then
    echo "gpu: SKIP, no programs in $src/tests/device"
    exit 77
fi

# Compile in parallel, one log each.
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)
for p in $progs; do echo "$p"; done |
    xargs -P "$jobs" -I{} sh -c 'extra=
        # kv_heap: libgshmem_kv with its layouts on the device heap.
        [ "{}" = kv_heap ] && extra="-L$4/libs/kv/.libs -Wl,-rpath,$4/libs/kv/.libs -lgshmem_kv"
        # shellcheck disable=SC2086
        "$1" -x cu -I"$2/tests/device" -I"$2/tests/pe" \
        -o "$3/{}" "$2/tests/device/{}.c" $extra > "$3/{}.build" 2>&1' sh "$cc" "$src" "$work" "$build"
# The MoE dispatch/combine test (tests/moe) in both modes, with its library.
moe_src="$src/libs/moe/moe.c $src/libs/moe/moe_ll.c $src/libs/moe/moe_normal.c
         $src/libs/moe/moe_data.c"
moe_progs=
if [ -z "${GSHMEM_GPU_TESTS:-}" ]; then
    for m in ll normal; do
        mode=$(echo "MOE_$m" | tr '[:lower:]' '[:upper:]')
        # shellcheck disable=SC2086
        "$cc" -x cu -I"$src/libs/moe" -DMOE_TEST_MODE="$mode" -o "$work/moe_$m" \
            "$src/tests/moe/moe_test.c" $moe_src > "$work/moe_$m.build" 2>&1
        moe_progs="$moe_progs moe_$m"
    done
fi
echo "gpu: built $(echo $progs $moe_progs | wc -w) programs in $(($(date +%s) - start)) s" \
     "(${GSHMEM_CUDA_GENCODE:-the library targets}), GPU $CUDA_VISIBLE_DEVICES, $np PEs each"

fails=0
# run NAME MODE: one line.
run() {
    p=$1
    mode=$2
    label="$p${mode:+ ($mode)}"
    if [ ! -x "$work/$p" ]; then
        echo "FAIL $label (build): $(grep -m 1 -i error "$work/$p.build" || tail -n 1 "$work/$p.build")"
        fails=$((fails + 1))
        return
    fi
    t0=$(date +%s)
    # shellcheck disable=SC2086
    if [ "$mode" = net ]; then
        GSHMEM_DISABLE_P2P=1 timeout -k 10 "$limit" $launcher $root --oversubscribe --bind-to none \
            -np "$np" "$work/$p" > "$work/$p.out" 2>&1
    else
        timeout -k 10 "$limit" $launcher $root --oversubscribe --bind-to none \
            -np "$np" "$work/$p" > "$work/$p.out" 2>&1
    fi
    rc=$?
    dt=$(($(date +%s) - t0))
    case $p in
        bad_*)
            expect=$(sed -n 's|^/\* EXPECT: \(.*\) \*/$|\1|p' "$src/tests/device/$p.c" | head -n 1)
            if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && [ -n "$expect" ] &&
                grep -Eq "$expect" "$work/$p.out"; then
                echo "PASS $label ($np PEs, failed as expected, $dt s)"
                return
            fi
            echo "FAIL $label (exit $rc, $np PEs, $dt s): expected a failure matching: $expect"
            ;;
        *)
            if [ "$rc" -eq 0 ]; then
                echo "PASS $label ($np PEs, $dt s)"
                return
            fi
            if [ "$rc" -eq 77 ]; then
                echo "SKIP $label ($np PEs): $(tail -n 1 "$work/$p.out")"
                return
            fi
            why=$(grep -m 1 -E 'FAIL|gshmem: PE|error' "$work/$p.out" || tail -n 1 "$work/$p.out")
            [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && why="timed out after $limit s; $why"
            echo "FAIL $label (exit $rc, $np PEs, $dt s): $why"
            ;;
    esac
    fails=$((fails + 1))
    [ -n "${GSHMEM_GPU_VERBOSE:-}" ] && sed 's/^/    /' "$work/$p.out"
}

for p in $progs $moe_progs; do
    run "$p" ""
    [ "${GSHMEM_GPU_NET:-0}" = 1 ] && run "$p" net
done
echo "gpu: $fails failed, $(($(date +%s) - start)) s in all"
[ "$fails" -eq 0 ]
