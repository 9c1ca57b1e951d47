#!/usr/bin/env bash
# compare.sh - build the perftest programs with gshmemcc and with Open MPI's
# oshcc, run every benchmark REPS times alternating the two libraries (and
# the raw shared-memory floor), then print medians, ratios and the accepted
# checks. All JSON lines go to results/<stamp>.jsonl, the launchers' stderr
# to results/<stamp>.log. The checks are informative: the script fails only
# when nothing at all could be built or run.
#
# Environment:
#   REPS=5              repetitions of each benchmark per library
#   QUICK=1             short iteration counts (for checking the script)
#   ONLY="p_pingpong put_bw"  run only these programs
#   GSHMEMCC            default ../tools/gshmemcc, else gshmemcc on PATH;
#                       if neither exists the gshmem side is skipped
#   GSHMEMRUN           default ../tools/gshmemrun, else
#                       "mpirun --allow-run-as-root --oversubscribe"
#   OSHCC=oshcc  OSHRUN (see below)  CC=cc  CFLAGS="-O2 -std=c11 -Wall"
#   RUN_TIMEOUT=120     seconds before one run is killed
#   VERBOSE=1           echo every JSON line as it is measured
# Both launchers are called as: <launcher> -np <N> <program> [args].
#
# OSHMEM flags, as found on this machine (Open MPI 4.1.4, UCX 1.13, no IB):
#   --mca osc ^rdma     without it every OSHMEM job segfaults in
#                       shmem_finalize (after printing its results).
#   --mca pml ob1 --mca btl self,vader
#                       OSHMEM's init also initializes MPI; left to itself the
#                       MPI layer probes pml cm (libfabric/PSM) and spends
#                       ~200 ms there: shmem_init takes ~240 ms instead of
#                       ~31 ms. Forcing ob1 over shared memory is OSHMEM's
#                       best configuration here; other figures moved no more
#                       than the noise.
#   spml ucx is the only SPML and is picked by default; UCX's default
#   transports already do RMA and AMOs over sysv/posix shared memory, and
#   UCX_TLS=self,sm[,cma] measured the same, so UCX_TLS is left unset.
set -u

here=$(cd "$(dirname "$0")" && pwd)
reps=${REPS:-5}
build_dir=$here/build
results_dir=$here/results
stamp=$(date +%Y%m%d-%H%M%S)
results=$results_dir/$stamp.jsonl
log=$results_dir/$stamp.log
cc=${CC:-cc}
cflags=${CFLAGS:--O2 -std=c11 -Wall}
run_timeout=${RUN_TIMEOUT:-120}
oshcc=${OSHCC:-oshcc}
oshrun=${OSHRUN:-oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma --mca pml ob1 --mca btl self,vader}

programs="p_pingpong get_lat amo_lat put_bw barrier_lat init_time bcast_lat fcollect_lat alltoall_lat reduce_lat"

# What runs: program, PEs, full arguments, QUICK arguments.
# put_bw: -n caps windows per size, -b is the data volume per size.
plan=(
    "p_pingpong   2 -n100000  -n20000"
    "get_lat      2 -n100000  -n20000"
    "amo_lat      2 -n100000  -n20000"
    "put_bw       2 -b268435456 -b33554432"
    "barrier_lat  2 -n20000   -n5000"
    "barrier_lat  4 -n5000    -n1000"
    "init_time    2 -          -"
    "init_time    4 -          -"
    # collectives (active-set forms, at 8 B, 64 KiB and 1 MiB; coll_bench.h):
    # -n is the count at 8 B, larger sizes run fewer
    "bcast_lat    2 -n5000    -n1000"
    "bcast_lat    4 -n2000    -n500"
    "fcollect_lat 2 -n5000    -n1000"
    "fcollect_lat 4 -n2000    -n500"
    "alltoall_lat 2 -n5000    -n1000"
    "alltoall_lat 4 -n2000    -n500"
    "reduce_lat   2 -n5000    -n1000"
    "reduce_lat   4 -n2000    -n500"
)
raw_args_full="-n100000"
raw_args_quick="-n20000"

say() { echo "compare: $*"; }
selected() { case " ${ONLY:-$programs} " in *" $1 "*) return 0 ;; esac; return 1; }

mkdir -p "$results_dir"
: >"$results" || exit 1
: >"$log"

# --- find the two libraries --------------------------------------------------
sides=""
gshmemcc=${GSHMEMCC:-}
if [ -z "$gshmemcc" ]; then
    if [ -x "$here/../tools/gshmemcc" ]; then
        gshmemcc=$here/../tools/gshmemcc
    else
        gshmemcc=$(command -v gshmemcc || true)
    fi
fi
# a bare name (GSHMEMCC=gshmemcc) is looked up on PATH
[ -n "$gshmemcc" ] && gshmemcc=$(command -v "$gshmemcc" || echo "$gshmemcc")
if [ -n "$gshmemcc" ] && [ -x "$gshmemcc" ]; then
    sides="gshmem"
else
    say "gshmem side SKIPPED: no gshmemcc (looked at GSHMEMCC, $here/../tools/gshmemcc, PATH)"
fi
gshmemrun=${GSHMEMRUN:-}
if [ -z "$gshmemrun" ]; then
    if [ -x "$here/../tools/gshmemrun" ]; then
        gshmemrun=$here/../tools/gshmemrun
    else
        gshmemrun="mpirun --allow-run-as-root --oversubscribe"
    fi
fi
if command -v "$oshcc" >/dev/null 2>&1; then
    sides="${sides:+$sides }oshmem"
else
    say "oshmem side SKIPPED: $oshcc not found"
fi

# --- build -------------------------------------------------------------------
# built_<side>_<program>=1 marks what may run
for side in $sides; do
    compiler=$oshcc
    [ "$side" = gshmem ] && compiler=$gshmemcc
    mkdir -p "$build_dir/$side"
    for prog in $programs; do
        # shellcheck disable=SC2086  # cflags is a list of words
        if $compiler $cflags -I"$here" -o "$build_dir/$side/$prog" "$here/$prog.c" >>"$log" 2>&1; then
            eval "built_${side}_${prog}=1"
        else
            say "build FAILED: $side $prog (see $log)"
        fi
    done
done
have_raw=0
mkdir -p "$build_dir/raw"
# shellcheck disable=SC2086
if $cc $cflags -I"$here" -o "$build_dir/raw/raw_shm_pingpong" "$here/raw_shm_pingpong.c" >>"$log" 2>&1; then
    have_raw=1
else
    say "build FAILED: raw_shm_pingpong (see $log)"
fi

# --- run -----------------------------------------------------------------------
# Appends the JSON lines of one run to the results file, tagged with side and rep.
# Shows one line per run, or every JSON line with VERBOSE=1.
record() { # side rep file label
    grep '^{' "$3" | sed "s/^{/{\"side\":\"$1\",\"rep\":$2,/" >>"$results"
    if [ -n "${VERBOSE:-}" ]; then
        grep '^{' "$3" | sed "s/^/  [$1] /"
    else
        echo "  $1 $4: $(grep -c '^{' "$3") measurements"
    fi
}

run_one() { # side rep prog npes args
    local side=$1 rep=$2 prog=$3 npes=$4 args=$5 launcher out rc
    eval "[ \"\${built_${side}_${prog}:-}\" = 1 ]" || return 0
    case $side in
        gshmem) launcher=$gshmemrun ;;
        oshmem) launcher=$oshrun ;;
    esac
    [ "$args" = "-" ] && args=""
    out=$(mktemp)
    echo "=== rep $rep $side $prog np=$npes $args" >>"$log"
    # BENCH_T0_NS: launch instant for init_time's launch_to_init figure.
    # shellcheck disable=SC2086  # launcher and args are lists of words
    BENCH_T0_NS=$(date +%s%N) \
        timeout "$run_timeout" $launcher -np "$npes" "$build_dir/$side/$prog" $args \
        >"$out" 2>>"$log" </dev/null
    rc=$?
    [ $rc -ne 0 ] && say "run FAILED (exit $rc): $side $prog np=$npes (see $log)"
    record "$side" "$rep" "$out" "$prog np=$npes"
    rm -f "$out"
}

say "sides: ${sides:-none}; REPS=$reps${QUICK:+ QUICK}; results: $results"
say "gshmem: cc=${gshmemcc:-none} run=$gshmemrun"
say "oshmem: cc=$oshcc run=$oshrun"
[ -z "$sides" ] && [ $have_raw = 0 ] && { say "nothing to run"; exit 1; }

for rep in $(seq 1 "$reps"); do
    # Alternate which library goes first, so slow drifts of the machine
    # (another job starting, thermal state) hit both sides alike.
    order=$sides
    [ $((rep % 2)) = 0 ] && order=$(echo "$sides" | tr ' ' '\n' | tac | xargs)
    say "rep $rep/$reps (order: $order)"
    if [ $have_raw = 1 ] && selected p_pingpong; then
        out=$(mktemp)
        raw_args=$raw_args_full
        [ -n "${QUICK:-}" ] && raw_args=$raw_args_quick
        timeout "$run_timeout" "$build_dir/raw/raw_shm_pingpong" $raw_args >"$out" 2>>"$log" ||
            say "run FAILED: raw_shm_pingpong"
        record raw "$rep" "$out" raw_shm_pingpong
        rm -f "$out"
    fi
    for entry in "${plan[@]}"; do
        read -r prog npes args_full args_quick <<<"$entry"
        selected "$prog" || continue
        args=$args_full
        [ -n "${QUICK:-}" ] && args=$args_quick
        for side in $order; do
            run_one "$side" "$rep" "$prog" "$npes" "$args"
        done
    done
done

echo
say "medians over $reps reps ($results)"
echo
python3 "$here/summarize.py" "$results"
exit 0
