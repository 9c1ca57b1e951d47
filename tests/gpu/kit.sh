#!/bin/sh
# tests/gpu/kit.sh - the prepared GPU kit: build here, run on a GPU machine
# that has CUDA 13 with nvcc and the nvidia-nvshmem-cu13 Python package,
# but no Open MPI, PMIx, UCX or package registry.
#
#   kit.sh prepare   (here) builds _kit/bundle, self-contained, and packs
#                    it as _kit/bundle.tar.xz (< 60 MiB; the bundle itself
#                    is larger, its device code compresses 10-30x with xz):
#                    every tests/device program, the device perftests and
#                    the MoE test as CUDA for sm_90, libgshmem.so and every
#                    shared library they need that a bare CUDA image may
#                    lack.  Out of tree: a copy of the sources in _kit/src,
#                    built in _kit/build, so the developer's build is never
#                    touched.  That build leaves UCX out (a pkg-config that
#                    hides it): the programs run without it.  A second
#                    libgshmem.so, built in _kit/build-ucx against PyPI's
#                    CUDA-enabled UCX (libucx-cu13, carried in bundle/ucx),
#                    goes to bundle/lib-ucx for stage 8's steps over UCX.
#                    PMIx cannot be left out (configure requires it), so
#                    libpmix and its libraries are carried: the uid
#                    bootstrap never initializes it.  Carry `_kit/bundle.tar.xz` to the GPU
#                    machine; run unpacks it there when _kit/bundle is absent.
#   kit.sh run       (there) in one go, under --budget seconds (300 by
#                    default: run that first), in the order of the stages
#                    below (# stage N:): GPU info (driver, compute mode,
#                    persistence, MPS, the device query built in prepare;
#                    one process holds the context when persistence is
#                    off), 1-PE smoke, the other 1-PE programs (four at a
#                    time), the watcher and bad_* programs (the expected
#                    line and EXPECT_STATUS, no hang), MoE at the default
#                    shape, Python, every program on 2 PEs, the proxy
#                    ring on 2 PEs over the node transport (no UCX or
#                    RDMA device needed) and over the carried UCX
#                    (cuda_ipc), with ucx_perftest beside it, compute-
#                    sanitizer (PATH or CUDA_HOME), the benchmarks, and
#                    NVSHMEM's twin (built in the background from the start
#                    by kit/nvshmem_build.sh, run by kit/nvshmem_run.sh).
#                    Each row is printed as its step ends, then one table;
#                    every log, the results and the figures are packed into
#                    $OUT/kit-logs.tar.gz.  --only PATTERN runs the matching
#                    steps.
#   kit.sh table R F prints the table of a results and a figures file.
#
# PEs start with tests/uid/uidrun (GSHMEM_BOOTSTRAP=uid), every step under
# its own timeout, GSHMEM_DEVICE_WAIT_TIMEOUT=20.  The host-side logic is
# tests/gpu/kit/lib.sh, checked without a GPU by tests/gpu/kit_selftest.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kit=${GSHMEM_KIT_DIR:-$top/_kit}
bundle=$kit/bundle
# shellcheck source=tests/gpu/kit/lib.sh
. "$here/kit/lib.sh"

kit_args "$@" || exit 2

# ---- prepare ------------------------------------------------------------------

# The libraries a CUDA image always has (or must have from the host: the
# driver); everything else an ldd lists is carried.
base_libs='linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|libutil|libresolv|libgcc_s|libstdc\+\+|libcuda\.so|libnvidia-'

# PyPI's CUDA-enabled UCX (libucx-cu13) and libgshmem built against it,
# for stage 8's proxy over UCX's cuda_ipc and cuda_copy.  The wheel is
# fetched once into $kit/ucx-wheel; what a run needs (UCX's shared objects,
# its CUDA and cma modules, ucx_perftest with its CUDA plugin, the wheel's
# own libcudart and libgomp: about 36 MiB, 10 packed) goes to $bundle/ucx
# in the wheel's layout, which their RUNPATHs ($ORIGIN/../..) expect, and
# that libgshmem.so.0 to $bundle/lib-ucx: the programs are the same, a run
# puts lib-ucx in front of lib to take the transport.
prepare_ucx() {
    w=$kit/ucx-wheel
    if [ ! -d "$w/libucx/lib" ]; then
        echo "kit: fetching libucx-cu13 from PyPI"
        rm -rf "$w" && mkdir -p "$w" || return 1
        pip download --no-deps -q -d "$w" libucx-cu13 > "$kit/ucx-wheel.log" 2>&1 &&
            python3 -m zipfile -e "$w"/libucx_cu13-*.whl "$w" >> "$kit/ucx-wheel.log" 2>&1 || {
            echo "kit: cannot fetch or unpack libucx-cu13, see $kit/ucx-wheel.log"
            rm -rf "$w"
            return 1
        }
    fi
    # Its pkg-config and libtool files name the wheel builder's prefix:
    # the first are rewritten; the second, which libtool would follow to
    # that builder's folders, go (the shared objects are enough).
    rm -f "$w"/libucx/lib/*.la
    rm -rf "$kit/ucx-pc" && mkdir -p "$kit/ucx-pc" || return 1
    for f in "$w"/libucx/lib/pkgconfig/*.pc; do
        sed "s|^prefix *=.*|prefix = $w/libucx|" "$f" > "$kit/ucx-pc/${f##*/}" || return 1
    done
    if [ ! -f "$kit/build-ucx/Makefile" ]; then
        echo "kit: configuring (CUDA, the wheel's UCX) in $kit/build-ucx"
        mkdir -p "$kit/build-ucx" &&
            (cd "$kit/build-ucx" && PKG_CONFIG_PATH="$kit/ucx-pc" "$src/configure" \
                --prefix="$kit/prefix-ucx" > "$kit/configure-ucx.log" 2>&1) || {
            echo "kit: configure with UCX failed, see $kit/configure-ucx.log"
            return 1
        }
    fi
    for d in GSHMEM_HAVE_UCX GSHMEM_HAVE_CUDA; do
        grep -q "^#define $d 1" "$kit/build-ucx/config.h" || {
            echo "kit: the UCX build lacks $d (see $kit/configure-ucx.log)"
            return 1
        }
    done
    echo "kit: building the library against the wheel's UCX (niced)"
    nice -n 10 make -C "$kit/build-ucx" -j2 libgshmem.la > "$kit/make-ucx.log" 2>&1 || {
        echo "kit: make with UCX failed, see $kit/make-ucx.log"
        return 1
    }
    u=$bundle/ucx/libucx
    rm -rf "$bundle/lib-ucx" "$bundle/ucx" &&
        mkdir -p "$bundle/lib-ucx" "$u/lib/ucx" "$u/bin" "$bundle/ucx/libucx_cu13.libs" || return 1
    cp -P "$kit/build-ucx"/.libs/libgshmem.so* "$bundle/lib-ucx/" &&
        strip --strip-debug "$bundle"/lib-ucx/libgshmem.so.0.* || return 1
    for l in ucp uct ucs ucm; do cp -P "$w"/libucx/lib/lib$l.so.0* "$u/lib/" || return 1; done
    for m in uct_cuda ucm_cuda uct_cma ucx_perftest_cuda; do
        cp -P "$w"/libucx/lib/ucx/lib$m.so.0* "$u/lib/ucx/" || return 1
    done
    cp "$w/libucx/bin/ucx_perftest" "$u/bin/" && cp "$w"/libucx_cu13.libs/* "$bundle/ucx/libucx_cu13.libs/" ||
        return 1
    missing=$(LD_LIBRARY_PATH=$bundle/lib-ucx:$u/lib:$bundle/lib kit_missing_libs \
        "$bundle/lib-ucx/libgshmem.so.0" "$u/bin/ucx_perftest" "$u"/lib/ucx/*.so.0 |
        grep -Ev '^(libcuda|libnvidia-)')
    if [ -n "$missing" ]; then
        echo "kit: the UCX build's libraries miss: $missing"
        return 1
    fi
    return 0
}

prepare() {
    t0=$(date +%s)
    src=$kit/src
    build=$kit/build
    mkdir -p "$src" "$build" "$bundle/bin" "$bundle/lib" || return 1
    echo "kit: copying the working tree's sources to $src"
    (cd "$top" && git ls-files -co --exclude-standard | grep -v '^_kit/' | tar -cf - -T -) |
        (cd "$src" && tar -xpf -) || return 1
    [ -x "$src/configure" ] || (cd "$src" && autoreconf -fi > "$kit/autoreconf.log" 2>&1) || {
        echo "kit: autoreconf failed, see $kit/autoreconf.log"
        return 1
    }
    if [ ! -f "$build/Makefile" ]; then
        echo "kit: configuring (CUDA, no UCX) in $build"
        (cd "$build" && PKG_CONFIG="$here/kit/pkg-config-noucx" "$src/configure" \
            --prefix="$kit/prefix" > "$kit/configure.log" 2>&1) || {
            echo "kit: configure failed, see $kit/configure.log"
            return 1
        }
    fi
    grep -q '^#define GSHMEM_HAVE_CUDA 1' "$build/config.h" || {
        echo "kit: configure found no CUDA (see $kit/configure.log)"
        return 1
    }
    if grep -q '^#define GSHMEM_HAVE_UCX 1' "$build/config.h"; then
        echo "kit: the kit build found UCX, it must not"
        return 1
    fi
    echo "kit: building the library (niced)"
    nice -n 10 make -C "$build" -j2 libgshmem.la libgshmem_device.a tools/gshmemcc \
        > "$kit/make.log" 2>&1 || {
        echo "kit: make failed, see $kit/make.log"
        return 1
    }
    cc=$build/tools/gshmemcc
    export GSHMEM_CUDA_GENCODE="-gencode arch=compute_90,code=sm_90"
    # Anything newer than a binary makes it be built again.
    deps="$build/libgshmem_device.a $src/device $src/device/gsd $src/tests/device/dev_test.h
          $src/tests/device/bad_test.h $src/tests/pe/pe_test.h $src/perftest/device_bench.h"
    : > "$kit/programs.list"
    for t in "$src"/tests/device/*.c; do
        n=$(basename "$t" .c)
        # Host-lane tests of gshmemx_culibrary_init (a library handle from
        # dlopen; culib_kernel.c is that library, no main): not GPU programs.
        # exit_request: host lanes only (the watcher acts on its word).
        case $n in culib_kernel | culibrary | bad_culib_twice | bad_cumodule_fini | exit_request) continue ;; esac
        # kv_heap links libgshmem_kv: built below, after that library.
        [ "$n" = kv_heap ] && continue
        # ptxas -O0: -O3 spends over 10 minutes on the largest test (tests/gpu/run.sh).
        echo "dev_$n|-Xptxas -O0|-I$src/tests/device -I$src/tests/pe|$t"
    done >> "$kit/programs.list"
    for p in device_lat device_bw device_rate; do
        echo "$p||-I$src/perftest|$src/perftest/$p.c" >> "$kit/programs.list"
    done
    moe="$src/libs/moe/moe.c $src/libs/moe/moe_ll.c $src/libs/moe/moe_normal.c"
    moe="$moe $src/libs/moe/moe_data.c"
    echo "moe_ll|-Xptxas -O0 -Xptxas -v|-I$src/libs/moe -DMOE_TEST_MODE=MOE_LL|$src/tests/moe/moe_test.c $moe" \
        >> "$kit/programs.list"
    echo "moe_normal|-Xptxas -O0 -Xptxas -v|-I$src/libs/moe -DMOE_TEST_MODE=MOE_NORMAL|$src/tests/moe/moe_test.c $moe" \
        >> "$kit/programs.list"
    echo "kit: building $(wc -l < "$kit/programs.list") CUDA programs for sm_90 (2 at a time, niced)"
    mkdir -p "$kit/logs"
    # shellcheck disable=SC2016
    tr '\n' '\0' < "$kit/programs.list" | xargs -0 -P 2 -I{} sh -c '
        IFS="|" read -r name nvflags cflags srcs <<EOT
$1
EOT
        out=$2/bin/$name
        if [ -x "$out" ] && [ -z "$(find $srcs $4 -newer "$out" 2>/dev/null | head -n 1)" ]; then
            exit 0
        fi
        # shellcheck disable=SC2086
        GSHMEM_NVCCFLAGS="$nvflags" nice -n 10 "$3" -x cu $cflags -o "$out" $srcs \
            > "$5/logs/$name.build" 2>&1 || { echo "kit: FAIL build $name (see $5/logs/$name.build)"; rm -f "$out"; }
    ' sh {} "$bundle" "$cc" "$deps" "$kit"
    nbin=$(find "$bundle/bin" -type f ! -name query ! -name kv_file_gpu ! -name dev_kv_heap | wc -l)
    if [ "$nbin" -ne "$(wc -l < "$kit/programs.list")" ]; then
        echo "kit: $nbin of $(wc -l < "$kit/programs.list") programs built"
        return 1
    fi
    # The KV library's storage tier with a layout in GPU memory
    # (tests/kv/kv_file_gpu.c: its real-driver mode), a C program.
    echo "kit: building libgshmem_kv, tests/kv/kv_file_gpu and tests/device/kv_heap (niced)"
    nice -n 10 make -C "$build" -j2 libs/kv/libgshmem_kv.la > "$kit/make-kv.log" 2>&1 || {
        echo "kit: make libgshmem_kv.la failed, see $kit/make-kv.log"
        return 1
    }
    ${CC:-cc} -O2 -I"$src/include" -I"$src/tests/pe" -I"$src/tests/kv" -I"$build" \
        -o "$bundle/bin/kv_file_gpu" "$src/tests/kv/kv_file_gpu.c" \
        -L"$build/libs/kv/.libs" -L"$build/.libs" -Wl,-rpath,"$build/libs/kv/.libs:$build/.libs" \
        -lgshmem_kv -lgshmem -ldl > "$kit/logs/kv_file_gpu.build" 2>&1 || {
        echo "kit: FAIL build kv_file_gpu (see $kit/logs/kv_file_gpu.build)"
        return 1
    }
    # Its layouts on the device heap (tests/device/kv_heap.c): a device
    # program, run with the others (stages 3 and 7) as dev_kv_heap.
    GSHMEM_NVCCFLAGS="-Xptxas -O0" nice -n 10 "$cc" -x cu -I"$src/tests/device" -I"$src/tests/pe" \
        -o "$bundle/bin/dev_kv_heap" "$src/tests/device/kv_heap.c" -L"$build/libs/kv/.libs" \
        -lgshmem_kv > "$kit/logs/dev_kv_heap.build" 2>&1 || {
        echo "kit: FAIL build dev_kv_heap (see $kit/logs/dev_kv_heap.build)"
        return 1
    }
    # The device query (stage 1 of run), built here: no nvcc needed there.
    nvcc=$(kit_find_tool nvcc) || { echo "kit: no nvcc on PATH or under CUDA_HOME"; return 1; }
    "$nvcc" -o "$bundle/bin/query" "$here/kit/query.cu" -lcuda > "$kit/logs/query.build" 2>&1 || {
        echo "kit: FAIL build query (see $kit/logs/query.build)"
        return 1
    }
    # The CUDA build of libgshmem_moe (device-linked inside) and the Python
    # package with its GPU tests (tests/python/test_gpu.py): the package
    # finds the bundle's lib/ through the _installed.py written here.
    echo "kit: building libgshmem_moe_cuda.so for sm_90 (niced)"
    nice -n 10 make -C "$build" -j2 libgshmem_device.a libs/moe/libgshmem_moe_cuda.so \
        MOE_CUDA_GENCODE="$GSHMEM_CUDA_GENCODE" > "$kit/make-moe.log" 2>&1 || {
        echo "kit: make libgshmem_moe_cuda.so failed, see $kit/make-moe.log"
        return 1
    }
    # Registers against the launch shape: a MoE kernel launched with
    # MOE_MAX_THREADS threads (moe_default_launch) that needs more registers
    # than a block that large may have is refused at every launch.  ptxas -v
    # of the kit's programs (their build logs) and of libgshmem_moe_cuda.so's
    # objects (NAME.o.res, libs/moe/local.mk).
    moe_threads=$(sed -n 's/^#define MOE_MAX_THREADS \([0-9]*\).*/\1/p' "$src/libs/moe/moe.h")
    [ -n "$moe_threads" ] || { echo "kit: no MOE_MAX_THREADS in libs/moe/moe.h"; return 1; }
    over=$(kit_regs_over "$moe_threads" 'moe_(ll|nm)_' "$kit/logs/moe_ll.build" \
        "$kit/logs/moe_normal.build" "$build"/libs/moe/cuda/*.o.res)
    if [ -n "$over" ]; then
        echo "kit: FAIL MoE kernels need more registers than a $moe_threads-thread block has:"
        echo "$over"
        return 1
    fi
    echo "kit: MoE kernels fit $moe_threads threads a block ($(grep -hc 'Used [0-9]* registers' \
        "$kit/logs/moe_ll.build" "$kit/logs/moe_normal.build" "$build"/libs/moe/cuda/*.o.res |
        awk '{ n += $1 } END { print n + 0 }') kernel builds checked)"
    rm -rf "$bundle/python" && mkdir -p "$bundle/python/gshmem" "$bundle/python/tests" || return 1
    cp "$src"/python/gshmem/*.py "$bundle/python/gshmem/" || return 1
    # Subpackages too (gshmem imports gshmem.kv).
    for d in "$src"/python/gshmem/*/; do
        mkdir -p "$bundle/python/gshmem/$(basename "$d")" &&
            cp "$d"*.py "$bundle/python/gshmem/$(basename "$d")/" || return 1
    done
    printf 'import os\nLIBDIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib")\n' \
        > "$bundle/python/gshmem/_installed.py" || return 1
    for f in conftest.py ref.py gloo_run.py test_gpu.py; do
        cp "$src/tests/python/$f" "$bundle/python/tests/" || return 1
    done
    echo "kit: collecting libraries"
    rm -f "$bundle"/lib/*
    cp -P "$build"/.libs/libgshmem.so* "$bundle/lib/" || return 1
    cp "$build/libs/moe/libgshmem_moe_cuda.so" "$bundle/lib/" || return 1
    cp -P "$build"/libs/kv/.libs/libgshmem_kv.so* "$bundle/lib/" || return 1
    for f in "$bundle"/bin/* "$bundle/lib/libgshmem.so.0" "$bundle/lib/libgshmem_moe_cuda.so"; do ldd "$f"; done 2>/dev/null |
        awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u | grep -Ev "^($base_libs)" |
        while read -r name path; do
            cp -L "$path" "$bundle/lib/$name" || exit 1
        done || return 1
    # libcuda.so.1 is the driver's (the device query links it): the GPU
    # machine has it, this one may have only the stub.
    missing=$(LD_LIBRARY_PATH=$bundle/lib kit_missing_libs "$bundle"/bin/* | grep -v '^libcuda\.so\.1$')
    if [ -n "$missing" ]; then
        echo "kit: the bundle's programs miss: $missing"
        return 1
    fi
    prepare_ucx || return 1
    glibc=$(objdump -T "$bundle"/bin/* "$bundle"/lib/* "$bundle"/lib-ucx/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' |
            sort -u -V | tail -n 1)
    # The C runtime itself, for a GPU image whose glibc is older (run uses
    # it only there; see kit_glibc_older).
    rm -rf "$bundle/glibc" && mkdir -p "$bundle/glibc" || return 1
    for f in "$bundle"/bin/* "$bundle/lib/libgshmem.so.0"; do ldd "$f"; done 2>/dev/null |
        awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 } $1 ~ /^\/.*ld-linux/ { n = $1; sub(/.*\//, "", n); print n, $1 }' |
        sort -u | grep -E "^($base_libs)" | grep -Ev '^(linux-vdso|libcuda|libnvidia-)' |
        while read -r name path; do
            cp -L "$path" "$bundle/glibc/$name" || exit 1
        done || return 1
    [ -x "$bundle/glibc/ld-linux-x86-64.so.2" ] || {
        echo "kit: no ld-linux-x86-64.so.2 among the programs' libraries"
        return 1
    }
    echo "${glibc#GLIBC_}" > "$bundle/glibc/needs"
    # Debug sections of the library are for this machine's debugger.
    strip --strip-debug "$bundle"/lib/libgshmem.so.0.* || return 1
    (cd "$kit" && tar -cf - bundle | xz -T 2 -6 > bundle.tar.xz) || return 1
    size=$(du -sm "$kit/bundle.tar.xz" | cut -f 1)
    unpacked=$(du -sm "$bundle" | cut -f 1)
    echo "kit: bundle $bundle: $unpacked MiB, packed $kit/bundle.tar.xz: $size MiB ($nbin programs; libraries: $(cd "$bundle/lib" && ls | tr '\n' ' '))"
    echo "kit: the programs need glibc >= ${glibc#GLIBC_} (built on $(. /etc/os-release && echo "$PRETTY_NAME"))"
    echo "kit: prepared in $(($(date +%s) - t0)) s; carry _kit/bundle.tar.xz"
    if [ "$size" -gt 60 ]; then
        echo "kit: FAIL the packed bundle is $size MiB, over 60 MiB"
        return 1
    fi
    return 0
}

# ---- run ----------------------------------------------------------------------

uidrun=$top/tests/uid/uidrun

expect_of() { # the EXPECT regex of a tests/device program
    sed -n 's|^/\* EXPECT: \(.*\) \*/$|\1|p' "$top/tests/device/$1.c" | head -n 1
}

bad_kind() { # kit_step's kind for a tests/device bad_* program: bad[:STATUS]=RE
    _st=$(sed -n 's|^/\* EXPECT_STATUS: \([0-9]*\) \*/$|\1|p' "$top/tests/device/$1.c" | head -n 1)
    echo "bad${_st:+:$_st}=$(expect_of "$1")"
}

run() {
    if [ ! -d "$bundle/bin" ] && [ -f "$kit/bundle.tar.xz" ]; then
        echo "kit: unpacking $kit/bundle.tar.xz"
        # xz where the image has it, else Python's lzma (the GPU image has Python).
        if command -v xz > /dev/null 2>&1; then
            (cd "$kit" && xz -dc bundle.tar.xz | tar -xf -) || return 2
        else
            (cd "$kit" && python3 -c 'import tarfile; tarfile.open("bundle.tar.xz").extractall()') || return 2
        fi
    fi
    if [ ! -d "$bundle/bin" ]; then
        echo "kit: no bundle at $bundle: run 'tests/gpu/kit.sh prepare' where the sources build, and carry _kit/bundle.tar.xz"
        return 2
    fi
    if ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        echo "kit: no GPU here (nvidia-smi lists none): run this on the GPU machine"
        return 77
    fi
    out=$(mktemp -d "${OUT:-${TMPDIR:-/tmp}}/kit-run.XXXXXX") || return 2
    kit_init "$out" || return 2
    # Every log, the results and the figures come back as one archive (a
    # GPU run returns few files), written however the run ends.
    archive=${OUT:-$out}/kit-logs.tar.gz
    trap 'kit_archive "$out" "$archive"; echo "kit: logs in $archive"' EXIT
    trap 'exit 130' INT TERM
    export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export GSHMEM_DEVICE_WAIT_TIMEOUT=20 CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"
    bin=$bundle/bin
    echo "kit: run, results in $out (budget $kit_budget s)"
    NVCC=$(kit_find_tool nvcc) && export NVCC
    sanitizer=$(kit_find_tool compute-sanitizer)

    # NVSHMEM's benchmark builds (minutes of nvcc) while everything else runs.
    kit_bg_start nvshmem-build sh "$here/kit/nvshmem_build.sh" "$top" "$out"

    # An image older than the build machine's glibc: every bundle program
    # starts through the carried loader ($ldso), with the driver's folder
    # and LD_LIBRARY_PATH on its path (dlopen of libcuda.so.1 must still
    # find the host's driver).
    # loader LIBPATH: that loader's command with LIBPATH on its path (empty
    # where the image's own glibc will do).
    ldso= old_glibc=
    loader() {
        [ -n "$old_glibc" ] &&
            echo "$bundle/glibc/ld-linux-x86-64.so.2 --library-path $bundle/glibc:$1${drv:+:${drv%/*}}"
    }
    have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')
    need=$(cat "$bundle/glibc/needs" 2>/dev/null)
    if [ -n "$have" ] && [ -n "$need" ] && kit_glibc_older "$have" "$need"; then
        drv=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / { print $NF; exit }')
        old_glibc=1
        ldso=$(loader "$LD_LIBRARY_PATH")
        echo "kit: this glibc is $have, the bundle needs $need: programs start through the carried loader"
    fi
    KIT_LDSO=$ldso
    missing=$(kit_missing_libs "$bin"/* "$bundle"/lib/*.so*)
    if [ -n "$missing" ]; then
        echo "kit: missing shared libraries: $missing"
        kit_record libs FAIL 0 "missing: $(echo $missing)"
    else
        kit_record libs PASS 0 ""
    fi

    # stage 1: gpu info (driver, compute mode, persistence, MPS; the device
    # query built in prepare).  Without persistence mode one process holds
    # the GPU's context for the whole run, so each program does not set the
    # GPU up again.
    kit_step gpu-info 60 ok sh -c 'nvidia-smi --query-gpu=name,driver_version,compute_mode,persistence_mode,compute_cap,memory.total --format=csv &&
        { ls -d /tmp/nvidia-mps 2>/dev/null && echo "MPS: a pipe directory exists" || echo "MPS: none seen"; } &&
        $2 "$1"' sh "$bin/query" "$ldso"
    sed 's/^/    /' "$out/logs/gpu-info.log"
    if grep -q ', Disabled,' "$out/logs/gpu-info.log"; then
        $ldso "$bin/query" hold > /dev/null 2>&1 &
        holder=$!
        trap 'kill "$holder" 2>/dev/null; kit_archive "$out" "$archive"; echo "kit: logs in $archive"' EXIT
    fi

    # stage 2: smoke np1: the basic families on 1 PE, four at a time.
    smoke="mem rma signal coll"
    for n in $smoke; do
        kit_pstep "$n-np1" 90 ok "$uidrun" -np 1 $ldso "$bin/dev_$n"
    done
    kit_pwait

    # stage 3: correctness np1: the other device programs on 1 PE.
    for p in "$bin"/dev_*; do
        n=${p##*/dev_}
        case " $smoke " in *" $n "*) continue ;; esac
        case $n in bad_*) continue ;; esac
        kit_pstep "$n-np1" 90 ok "$uidrun" -np 1 $ldso "$p"
    done
    kit_pwait

    # stage 4: watcher and bad_* programs (the expected line, the expected
    # status, no hang): 1 PE four at a time, then 2 PEs.
    # At 1 PE only those that tests/device/local.mk runs at 1 PE: a
    # mismatch between PEs (bad_dmalloc_asym, ...) needs two.
    for p in "$bin"/dev_bad_*; do
        n=${p##*/dev_}
        grep -q "tests/device/$n-np1\.pe" "$top/tests/device/local.mk" || continue
        kit_pstep "$n-np1" 60 "$(bad_kind "$n")" "$uidrun" -np 1 $ldso "$p"
    done
    kit_pwait
    for p in "$bin"/dev_bad_*; do
        n=${p##*/dev_}
        kit_step "$n-np2" 60 "$(bad_kind "$n")" "$uidrun" -np 2 $ldso "$p"
    done

    # stage 5: moe default shape (moe_test's first pass on the GPU), then
    # the small shapes.
    for m in moe_ll moe_normal; do
        for np in 1 2; do kit_step "$m-np$np" 90 ok "$uidrun" -np "$np" $ldso "$bin/$m"; done
    done

    # stage 6: python
    # The Python tests with CUDA tensors: 2 processes (torch.multiprocessing,
    # gloo, the uid bootstrap) on the one GPU.  The image's python3 loads
    # the bundle's libraries itself, so not where they need the carried loader.
    if [ -n "$ldso" ]; then
        kit_skip python-gpu-np2 "this glibc is older than the bundle's: python3 cannot load it"
    else
        kit_step python-gpu-np2 300 ok sh -c 'python3 -c "import torch, pytest, numpy; assert torch.cuda.is_available()" ||
            { echo "no python3 with pytest, numpy and torch that sees a GPU"; exit 77; }
            cd "$1/python/tests" || exit 2
            # Unbuffered, verbose, with the debug lines of the library: on the H200
            # (2026-12-04) the second process exited 1 at the end of the session
            # with no line (finalize zeroed the device state under a
            # barrier_all queued on a stream: src/gpu/cuda/cuda_devmem.c).
            out=$(SHMEM_DEBUG=1 PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH="$1/python:$1/python/tests" python3 gloo_run.py 2 uid \
                -v -p no:cacheprovider --color=no -rA test_gpu.py 2>&1); rc=$?
            echo "$out"
            [ "$rc" -eq 0 ] || exit "$rc"
            # A skip here means the heap did not go on the GPU: a failure.
            if echo "$out" | grep -q " skipped"; then echo "GPU tests were skipped"; exit 1; fi' \
            sh "$bundle"
    fi

    # stage 7: core np2: every other device program on 2 PEs sharing the GPU.
    for p in "$bin"/dev_*; do
        n=${p##*/dev_}
        case $n in bad_*) continue ;; esac
        kit_step "$n-np2" 90 ok "$uidrun" -np 2 $ldso "$p"
    done

    # stage 7b: the KV storage tier with a layout in GPU memory: staged
    # through host memory with each I/O engine, then through the image's
    # cuFile (nvidia-cufile's libcufile.so.0) where Python finds it.
    # shellcheck disable=SC2016
    kit_step kv-file-gpu 90 ok sh -c 'for e in auto posix; do
            echo "GSHMEM_KV_FILE_ENGINE=$e"; GSHMEM_KV_FILE_ENGINE=$e $1 "$2" || exit $?; done
        d=$(python3 -c "import os, nvidia.cufile as c; print(os.path.join(list(c.__path__)[0], \"lib\"))" 2>/dev/null)
        if [ -n "$d" ] && [ -e "$d/libcufile.so.0" ]; then
            echo "cuFile from $d"; LD_LIBRARY_PATH=$d:$LD_LIBRARY_PATH $1 "$2"
        else echo "no libcufile.so.0 from nvidia-cufile: cuFile not tried"; fi' sh "$ldso" "$bin/kv_file_gpu"

    # stage 8: proxy ring np2: the device programs with every peer through
    # the proxy channels, drained by the host into the node transport
    # (GSHMEM_TRANSPORT=node, src/net/node/): lanes push, quiet and fetch
    # on the GPU while the proxy thread copies with cuMemcpyAsync between
    # the VMM mappings and runs atomics as a one-thread kernel.  On the
    # H200 (2026-12-04) rma took 9 s, amo 26, coll 6, signal 44 and ring ran
    # past 90 s: every proxied operation waits for its copy while two
    # contexts time-slice one GPU.  signal and ring are left out so that the
    # benchmarks after this stage still fit the budget.
    for n in rma amo coll; do
        kit_step "node-$n-np2" 90 ok env GSHMEM_TRANSPORT=node GSHMEM_DISABLE_P2P=1 \
            "$uidrun" -np 2 $ldso "$bin/dev_$n"
    done
    # The same proxy path over UCX (the wheel's, carried in prepare): the
    # library built with it (lib-ucx) in front, UCX's cuda_ipc and
    # cuda_copy moving the puts and gets between the two PEs' device heaps
    # (atomics on GPU memory need an RDMA NIC that registers it: dev_amo
    # would be refused, and is not run).  Then ucx_perftest's own put
    # bandwidth between two processes' GPU memory, 1 MiB, for comparison.
    ucxlib=$bundle/lib-ucx:$bundle/ucx/libucx/lib:$LD_LIBRARY_PATH
    ldso_ucx=$(loader "$ucxlib")
    kit_step ucx-rma-np2 90 ok env LD_LIBRARY_PATH="$ucxlib" GSHMEM_TRANSPORT=ucx \
        GSHMEM_DISABLE_P2P=1 "$uidrun" -np 2 $ldso_ucx "$bin/dev_rma"
    # shellcheck disable=SC2016
    kit_step ucx-perftest-cuda 60 ok sh -c 'p="$1 $2 -t ucp_put_bw -m cuda -s 1048576 -n 2000 -p 13373"
        LD_LIBRARY_PATH=$3 $p > "$4" 2>&1 & s=$!; sleep 2
        LD_LIBRARY_PATH=$3 $p localhost; rc=$?; wait "$s"; cat "$4"; exit "$rc"' sh "$ldso_ucx" \
        "$bundle/ucx/libucx/bin/ucx_perftest" "$ucxlib" "$out/logs/ucx-perftest-server.log"

    # stage 9: sanitizers (compute-sanitizer on PATH or under CUDA_HOME).
    if [ -n "$sanitizer" ]; then
        kit_step memcheck-rma-np1 120 ok "$uidrun" -np 1 "$sanitizer" --tool memcheck \
            --error-exitcode 3 $ldso "$bin/dev_rma"
        kit_step racecheck-signal-np1 120 ok "$uidrun" -np 1 "$sanitizer" --tool racecheck \
            --error-exitcode 3 $ldso "$bin/dev_signal"
    else
        kit_skip memcheck-rma-np1 "no compute-sanitizer on PATH or under CUDA_HOME"
        kit_skip racecheck-signal-np1 "no compute-sanitizer on PATH or under CUDA_HOME"
    fi

    # stage 10: benchmarks: gst_verbs with the device heap registered for
    # RDMA (dma-buf, else nvidia_peermem), dev_rma with every peer through
    # verbs; without an RDMA device (or the image's rdma-core providers) the
    # job ends with "transport verbs: no RDMA device", recorded as a SKIP.
    # Then gshmem's device perftests at 1 PE (a PE to itself, as NVSHMEM's
    # 1-PE twin: the figures to compare) and at 2 PEs on the one GPU.
    # shellcheck disable=SC2016
    kit_step verbs-dev_rma-np2 90 ok sh -c '"$@" > "$0" 2>&1; rc=$?; cat "$0"
        if [ "$rc" -ne 0 ] && grep -q "transport verbs: no RDMA device" "$0"; then
            echo "SKIP: no RDMA device here"; exit 77; fi; exit "$rc"' "$out/verbs-dev_rma.out" \
        env GSHMEM_TRANSPORT=verbs GSHMEM_DISABLE_P2P=1 "$uidrun" -np 2 $ldso "$bin/dev_rma"
    for b in device_bw device_lat device_rate; do
        kit_step "bench-$b-np1" 120 ok "$uidrun" -np 1 $ldso "$bin/$b"
        kit_step "bench-$b" 120 ok "$uidrun" -np 2 $ldso "$bin/$b"
    done

    # stage 11: nvshmem: its build (started first) is waited for; its twin
    # of the benchmarks on 1 PE (the figures), and on 2 when its unique-id
    # bootstrap runs them on one GPU (else a SKIP with the reason).
    kit_bg_wait nvshmem-build 180
    kit_step bench-nvshmem-np1 120 ok sh "$here/kit/nvshmem_run.sh" 1 "$out"
    kit_step bench-nvshmem-np2 120 ok sh "$here/kit/nvshmem_run.sh" 2 "$out"
    figures "$out"
    kit_table "$kit_results" "$kit_figures"
}

# figures OUT: rows of the final table from the benchmarks' JSON lines,
# gshmem beside NVSHMEM at the same number of PEs: 1 (a PE to itself, the
# figures to compare) and 2 (two contexts time-slicing one GPU: each side's
# peer kernels share the GPU differently, so a ratio there says little).
figures() {
    g=$1/logs
    for np in 1 2; do
        sfx=-np$np
        [ "$np" = 2 ] && sfx=
        nv=$g/bench-nvshmem-np$np.log
        grep -q "\"npes\":$np" "$nv" 2>/dev/null || continue
        for sc in thread warp block; do
            for sz in 8 65536 1048576; do
                for op in put get; do
                    kit_figure "${op}_bw $sc ${sz}B np$np (MBps)" \
                        "$(kit_json_value "$g/bench-device_bw$sfx.log" dev_${op}_bw "$sc" "$sz" MBps)" \
                        "$(kit_json_value "$nv" dev_${op}_bw "$sc" "$sz" MBps)" \
                        "$(kit_json_value "$nv" copy_bw "$sc" "$sz" MBps)"
                done
            done
        done
        for f in p_pingpong:device_lat:lat_ns signal_pingpong:device_lat:lat_ns \
            amo_lat:device_lat:lat_ns msg_rate:device_rate:Mmsgps; do
            b=${f%%:*} prog=${f#*:} unit=${f##*:}
            prog=${prog%%:*}
            kit_figure "$b 8B np$np ($unit)" \
                "$(kit_json_value "$g/bench-$prog$sfx.log" "dev_$b" thread 8 "$unit")" \
                "$(kit_json_value "$nv" "dev_$b" thread 8 "$unit")" "-"
        done
    done
}

case $kit_cmd in
prepare) prepare ;;
run) run ;;
table)
    # shellcheck disable=SC2086
    kit_table $kit_rest
    ;;
esac
