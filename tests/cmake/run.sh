#!/bin/sh
# tests/cmake/run.sh - CMake users can use gshmem (cmake/gshmemConfig.cmake.in).
#
# 1. `make install DESTDIR=<tmp>/stage` of the build tree: the package is
#    used from a place other than the prefix it was configured for, so it
#    must find its files relative to itself.
# 2. tests/cmake/project (hello.c: a put to the right neighbour, checked) is
#    configured with CMAKE_PREFIX_PATH at the staged prefix, built with
#    find_package(gshmem) / gshmem::gshmem, and run on 2 PEs under mpirun.
#    CMake's own build rpath is off, so the program finds libgshmem.so only
#    through the rpath the imported target carries (as gshmemcc's does).
# 3. Where the build has libgshmem_device.a (configured with CUDA),
#    tests/cmake/cuda (ring.cu, a kernel that puts) is configured with
#    CMake's CUDA language (nvcc of the CUDA_HOME configure found, sm_90)
#    and built twice, through gshmem_target_link_device and through a plain
#    target_link_libraries with gshmem::gshmem_device; both must build with
#    a device link that pulls in the archive.  They are not run (that needs
#    a GPU; tests/gpu/run.sh runs the device API there).
#
# Exit status: 0 pass, 1 fail (one line "cmake/run.sh: FAIL, ..." after the
# tail of the log concerned), 77 skip when cmake (3.18 or later) is missing.
# Environment: GSHMEM_TOP_SRCDIR, GSHMEM_TOP_BUILDDIR (the harness sets them;
# default: this tree), GSHMEM_TEST_LAUNCHER (default configure's mpirun),
# GSHMEM_TEST_TIMEOUT (seconds for the 2-PE run, default 60),
# GSHMEM_CMAKE_KEEP=1 keeps the temporary folder.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${GSHMEM_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$src}

say() { echo "cmake/run.sh: $*"; }
skip() {
    say "SKIP, $*"
    exit 77
}
# fail MESSAGE [LOG]: the end of LOG, then the verdict.
fail() {
    [ $# -gt 1 ] && [ -f "$2" ] && tail -n 40 "$2"
    say "FAIL, $1"
    exit 1
}

if ! command -v cmake >/dev/null 2>&1; then
    skip "cmake is not installed (Debian package: cmake)"
fi
cmver=$(cmake --version | sed -n '1s/^cmake version \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
cmmajor=${cmver%%.*}
cmminor=${cmver#*.}
if [ -z "$cmver" ] || [ "$cmmajor" -lt 3 ] || { [ "$cmmajor" -eq 3 ] && [ "$cmminor" -lt 18 ]; }; then
    skip "cmake ${cmver:-of unknown version} is older than 3.18, which gshmem's CMake package needs"
fi

# What configure chose, from the build's Makefile ("name = value" lines).
[ -f "$build/Makefile" ] || fail "$build is not a configured gshmem build tree (no Makefile)"
mkvar() { sed -n "s|^$1 = ||p" "$build/Makefile" | head -n 1; }
prefix=$(mkvar prefix)
version=$(mkvar PACKAGE_VERSION)
cuda_home=$(mkvar CUDA_HOME)
launcher=${GSHMEM_TEST_LAUNCHER:-$(mkvar MPIRUN)}
launcher=${launcher:-mpirun}
limit=${GSHMEM_TEST_TIMEOUT:-60}
if [ -z "$prefix" ] || [ -z "$version" ]; then
    fail "no prefix or PACKAGE_VERSION in $build/Makefile"
fi

# Under `make check` MAKEFLAGS carries the harness's jobserver and its
# command-line variables (TESTS=...): they are not for the makes run here
# (the install, and the ones cmake --build runs).
unset MAKEFLAGS MFLAGS MAKELEVEL

work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-cmake.XXXXXX") || exit 99
if [ "${GSHMEM_CMAKE_KEEP:-0}" = 1 ]; then
    say "keeping $work"
else
    trap 'rm -rf "$work"' EXIT
fi
stage=$work/stage
root=$stage$prefix

# 1. The staged install.
if ! make -C "$build" install DESTDIR="$stage" >"$work/install.log" 2>&1; then
    fail "make -C $build install DESTDIR=$stage failed" "$work/install.log"
fi
config=$(find "$stage" -name gshmemConfig.cmake | head -n 1)
[ -n "$config" ] || fail "make install put no gshmemConfig.cmake under $stage" "$work/install.log"
[ -f "$(dirname "$config")/gshmemConfigVersion.cmake" ] ||
    fail "make install put no gshmemConfigVersion.cmake beside $config"
say "staged install of gshmem $version for prefix $prefix in $stage"

# 2. The C program.
if ! cmake -S "$src/tests/cmake/project" -B "$work/host" -DCMAKE_PREFIX_PATH="$root" \
    -DCMAKE_SKIP_BUILD_RPATH=ON -DGSHMEM_TEST_STAGE="$stage" -DGSHMEM_TEST_VERSION="$version" \
    >"$work/host.log" 2>&1; then
    fail "cmake could not configure tests/cmake/project with find_package(gshmem $version) from $root" \
        "$work/host.log"
fi
grep 'gshmem .* in ' "$work/host.log" | sed 's/^-- /cmake\/run.sh: found /'
if ! cmake --build "$work/host" >>"$work/host.log" 2>&1; then
    fail "tests/cmake/project did not build against gshmem::gshmem" "$work/host.log"
fi
hello=$work/host/hello
if ! ldd "$hello" 2>/dev/null | grep -q "libgshmem\.so.* => $stage/"; then
    ldd "$hello"
    fail "hello does not find libgshmem.so in $stage through its rpath"
fi

as_root=
[ "$(id -u)" = 0 ] && as_root=--allow-run-as-root
# $launcher is split into words on purpose: it may carry options.
# shellcheck disable=SC2086
timeout -k 10 "$limit" $launcher $as_root --oversubscribe --bind-to none -np 2 "$hello" \
    >"$work/hello.out" 2>&1
status=$?
sed 's/^/  /' "$work/hello.out"
case $status in
    0) ;;
    124|137) fail "hello on 2 PEs timed out after $limit s (GSHMEM_TEST_TIMEOUT)" ;;
    *) fail "hello on 2 PEs exited $status" ;;
esac
passes=$(grep -c ': PASS$' "$work/hello.out")
[ "$passes" -eq 2 ] || fail "hello on 2 PEs: $passes of 2 PEs said PASS"
say "the C program built with gshmem::gshmem ran on 2 PEs: PASS"

# 3. The CUDA program, where there is a device archive.
if [ -z "$(find "$stage" -name libgshmem_device.a | head -n 1)" ]; then
    say "no libgshmem_device.a (gshmem was configured without CUDA): no CUDA build to check"
    say "PASS"
    exit 0
fi
nvcc=$cuda_home/bin/nvcc
[ -x "$nvcc" ] || fail "the build installed libgshmem_device.a, but there is no $nvcc (CUDA_HOME from configure)"
if ! cmake -S "$src/tests/cmake/cuda" -B "$work/cuda" -DCMAKE_PREFIX_PATH="$root" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/cuda.log" 2>&1; then
    fail "cmake could not configure tests/cmake/cuda (CUDA, find_package(gshmem COMPONENTS device))" \
        "$work/cuda.log"
fi
if grep -q 'CMake Warning' "$work/cuda.log"; then
    fail "configuring tests/cmake/cuda warned" "$work/cuda.log"
fi
if ! cmake --build "$work/cuda" --parallel 2 >>"$work/cuda.log" 2>&1; then
    fail "tests/cmake/cuda did not build against gshmem::gshmem_device" "$work/cuda.log"
fi
for prog in ring_helper ring_plain; do
    exe=$work/cuda/$prog
    [ -x "$exe" ] || fail "tests/cmake/cuda built no $prog" "$work/cuda.log"
    # CMake's device link step of that target, and the archive's state.cu
    # member (the symbol every -rdc unit including gshmem_device.h refers to).
    [ -n "$(find "$work/cuda" -path "*/$prog.dir/*" -name cmake_device_link.o)" ] ||
        fail "$prog was linked without a device link" "$work/cuda.log"
    nm "$exe" | grep -q gsd_needs_libgshmem_device_a ||
        fail "$prog has no gsd_needs_libgshmem_device_a: libgshmem_device.a was not linked" "$work/cuda.log"
    readelf -d "$exe" | grep -q 'NEEDED.*libgshmem\.so' ||
        fail "$prog does not link libgshmem.so" "$work/cuda.log"
done
say "the CUDA program built for sm_90 with gshmem::gshmem_device, through gshmem_target_link_device and through target_link_libraries (not run: that needs a GPU)"
say "PASS"
