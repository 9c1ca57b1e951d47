#!/usr/bin/env bash
# regress.sh - this build against an older commit of ours: the headline
# figures, measured interleaved in one run, each printed as current / BASE
# and marked when it is more than 10% worse.
#
#   perftest/regress.sh BASE                 REPS=5, every figure
#   ONLY="p_pingpong moe_ll" perftest/regress.sh BASE
#   QUICK=1 REPS=2 perftest/regress.sh BASE  short runs, to check the script
#
# BASE is any commit (a hash, a tag, main~3).  Its tree is exported with
# `git archive` into $REGRESS_DIR/<hash> (default ${TMPDIR:-/tmp}/gshmem-
# regress), configured with the options this tree's build was configured
# with (config.status --config, less the prefix) and built there; a later
# run against the same commit reuses that build.  The current side is this
# tree's build (GSHMEM_BUILD, default the source tree: run make first).
#
# Both sides run the same OpenSHMEM programs of this tree's perftest/
# (standard calls only); moe_bench, device_rate and kv_bench are each
# side's own, as its make built them.  Every rep runs every figure
# once per side, the side that goes first alternating, so both see the
# same drifts of the machine; the table has the median of the reps.  Run it
# with nothing else on the machine (a build on the other core slows every
# figure 3-5x).  JSON lines, tagged "side" and "rep", go to
# perftest/results/regress-<stamp>.jsonl; launcher output to the .log.
#
# Figures (name: what, PEs):
#   init          shmem_init, 2 PEs (max over PEs)
#   p_pingpong    shmem_long_p + wait_until ping-pong, 8 B, 2 PEs, load/store
#   p_ucx         the same through UCX (GSHMEM_DISABLE_P2P=1)
#   put_bw        shmem_putmem 8 KiB and 1 MiB, 2 PEs, load/store
#   put_ucx       the same through UCX
#   barrier       shmem_barrier_all, 4 PEs
#   moe_ll        MoE LL dispatch + combine, cpu shape, 4 PEs
#   moe_normal    MoE normal dispatch + combine, cpu shape, 4 PEs
#   proxy_rate    8-byte puts from device lanes through one proxy thread,
#                 UCX posix, 2 PEs (device_rate)
#   kv_read       where both sides have the KV library: a pull of 256 blocks
#                 of 32 KiB, 2 PEs (perftest/kv_bench; skipped where absent)
#   kv_tier       where both sides have the storage tier's benchmark: its
#                 random 64 KiB reads and writes, O_DIRECT, queue depth 32,
#                 on a 64 MiB file under /var/tmp (perftest/kv_fio; skipped
#                 where absent)
# Exit status: 0 when every figure ran on both sides (whatever they show),
# 1 when something could not be built or run.
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
cur=${GSHMEM_BUILD:-$src}
reps=${REPS:-5}
only=${ONLY:-init p_pingpong p_ucx put_bw put_ucx barrier moe_ll moe_normal proxy_rate kv_read kv_tier}
scratch=${REGRESS_DIR:-${TMPDIR:-/tmp}/gshmem-regress}
run_timeout=${RUN_TIMEOUT:-300}
cflags="-O2 -ftree-vectorize -fvect-cost-model=dynamic"
stamp=$(date +%Y%m%d-%H%M%S)
results=$here/results/regress-$stamp.jsonl
log=$here/results/regress-$stamp.log

say() { echo "regress: $*"; }
die() {
    echo "regress: $*" >&2
    exit 1
}

[ $# -eq 1 ] || die "usage: perftest/regress.sh BASE (a commit of this repository)"
base_name=$1
base_sha=$(git -C "$src" rev-parse --verify --quiet "$base_name^{commit}") ||
    die "$base_name is not a commit of $src"
[ -x "$cur/tools/gshmemcc" ] || die "$cur is not built (run scripts/build.sh or make first)"
mkdir -p "$here/results" "$scratch" || exit 1
: >"$results"
: >"$log"

# --- the BASE build ---------------------------------------------------------
base=$scratch/$base_sha
if [ ! -f "$base/.regress-built" ]; then
    say "building $base_name ($base_sha) in $base (once; log: $log)"
    rm -rf "$base"
    mkdir -p "$base" || exit 1
    git -C "$src" archive "$base_sha" | tar -x -C "$base" || die "cannot export $base_sha"
    # The options of this tree's configure, less its prefix.
    opts=()
    if [ -x "$cur/config.status" ]; then
        eval "set -- $("$cur/config.status" --config)"
        for a in "$@"; do
            case $a in --prefix=*) ;; *) opts+=("$a") ;; esac
        done
    fi
    (cd "$base" && autoreconf -fi && ./configure --prefix="$base/_inst" "${opts[@]}" &&
        make -j"$(nproc)") >>"$log" 2>&1 || die "building $base_sha failed (see $log)"
    touch "$base/.regress-built"
fi

# --- the benchmark programs, per side -----------------------------------------
# The OpenSHMEM programs from this tree's sources, built with each side's
# gshmemcc; moe_bench, device_rate and kv_bench as each side's make built
# them (the MoE library's sources move between commits, its make follows).
build_side() { # BUILD -> BUILD/perftest/build/regress
    local b=$1 out=$1/perftest/build/regress p
    mkdir -p "$out"
    for p in p_pingpong put_bw init_time barrier_lat; do
        # shellcheck disable=SC2086
        "$b/tools/gshmemcc" $cflags -std=c11 -Wall -I"$src/perftest" -o "$out/$p" \
            "$src/perftest/$p.c" >>"$log" 2>&1 || return 1
    done
    for p in moe_bench device_rate kv_bench kv_fio; do
        rm -f "$out/$p"
        [ -x "$b/perftest/$p" ] && ln -s "$b/perftest/$p" "$out/$p"
    done
    [ -x "$out/moe_bench" ] && [ -x "$out/device_rate" ]
}
say "building the benchmarks for both sides"
build_side "$base" || die "cannot build the benchmarks against $base_sha (see $log)"
build_side "$cur" || die "cannot build the benchmarks against $cur (see $log)"

# --- running ----------------------------------------------------------------
failed=0
# run SIDE REP FIGURE NP ENV... -- PROG ARGS...: the program's JSON lines,
# tagged, into the results.
run() {
    local side=$1 rep=$2 fig=$3 np=$4 b envs=() out
    shift 4
    while [ "$1" != -- ]; do
        envs+=("$1")
        shift
    done
    shift
    if [ "$side" = base ]; then b=$base; else b=$cur; fi
    local prog=$b/perftest/build/regress/$1
    shift
    [ -x "$prog" ] || return 0
    echo "== $side rep $rep $fig: $prog $*" >>"$log"
    out=$(env "${envs[@]}" BENCH_IMPL="$side" timeout -k 10 "$run_timeout" \
        "$b/tools/gshmemrun" -np "$np" "$prog" "$@" 2>>"$log" | grep '^{')
    if [ -z "$out" ]; then
        say "$fig on the $side side (rep $rep) gave no figure; see $log" >&2
        failed=1
        return
    fi
    echo "$out" | sed "s/^{/{\"side\":\"$side\",\"rep\":$rep,\"figure\":\"$fig\",/" >>"$results"
}

q() { [ -n "${QUICK:-}" ] && echo "$1" || echo "$2"; }
figure() { # SIDE REP FIGURE
    local s=$1 r=$2
    case $3 in
    init) run "$s" "$r" init 2 X=1 -- init_time ;;
    p_pingpong) run "$s" "$r" p_pingpong 2 X=1 -- p_pingpong -n "$(q 20000 200000)" ;;
    p_ucx) run "$s" "$r" p_ucx 2 GSHMEM_DISABLE_P2P=1 -- p_pingpong -n "$(q 20000 200000)" ;;
    put_bw) run "$s" "$r" put_bw 2 X=1 -- put_bw -b "$(q 16777216 268435456)" ;;
    put_ucx) run "$s" "$r" put_ucx 2 GSHMEM_DISABLE_P2P=1 -- put_bw -b "$(q 16777216 134217728)" ;;
    barrier) run "$s" "$r" barrier 4 X=1 -- barrier_lat -n "$(q 2000 20000)" ;;
    moe_ll) run "$s" "$r" moe_ll 4 X=1 -- moe_bench -s cpu -m ll -n "$(q 20 200)" ;;
    moe_normal) run "$s" "$r" moe_normal 4 X=1 -- moe_bench -s cpu -m normal -n "$(q 20 200)" ;;
    proxy_rate)
        run "$s" "$r" proxy_rate 2 UCX_TLS=posix,self GSHMEM_DISABLE_P2P=1 \
            GSHMEM_PROXY_THREADS=1 -- device_rate -n "$(q 500 4000)"
        ;;
    kv_read) run "$s" "$r" kv_read 2 X=1 -- kv_bench -b 32768 -k 256 -n "$(q 20 200)" ;;
    kv_tier)
        for m in randread randwrite; do
            run "$s" "$r" kv_tier 1 X=1 -- kv_fio -f /var/tmp/gshmem-regress-kvfio.dat -s 64M \
                -m "$m" -b 64k -q 32 -n "$(q 1 3)" -w 1
        done
        ;;
    *) die "unknown figure $3 (figures: init p_pingpong p_ucx put_bw put_ucx barrier moe_ll moe_normal proxy_rate kv_read kv_tier)" ;;
    esac
}

say "BASE $base_name ($base_sha) against $cur; REPS=$reps${QUICK:+ QUICK}; results: $results"
for ((rep = 1; rep <= reps; rep++)); do
    for fig in $only; do
        if ((rep % 2)); then
            figure base $rep "$fig"
            figure cur $rep "$fig"
        else
            figure cur $rep "$fig"
            figure base $rep "$fig"
        fi
    done
    say "rep $rep of $reps done"
done

rm -f /var/tmp/gshmem-regress-kvfio.dat
python3 "$here/regress_table.py" "$results" "$base_name" || failed=1
exit $failed
