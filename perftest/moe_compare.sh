#!/usr/bin/env bash
# moe_compare.sh - MoE dispatch + combine: gshmem (perftest/moe_bench, both
# modes) against the same work done with MPI_Alltoallv
# (perftest/moe_mpi_baseline), NP PEs, REPS runs of each, interleaved (the
# side that goes first alternates), then the median over runs of each
# run's median, and the ratio gshmem / MPI of dispatch + combine.
#
#   perftest/moe_compare.sh                 REPS=5 NP=4 SHAPE=cpu
#   SHAPE=deepep REPS=3 perftest/moe_compare.sh
#   QUICK=1 REPS=2 perftest/moe_compare.sh  short runs, to check the script
#
# Environment:
#   REPS=5  NP=4  SHAPE=cpu|deepep  MODES="ll normal"  ROUTE=random
#   ITERS, WARMUP     rounds per run (default: the programs' own, 200/10 at cpu)
#   GSHMEMCC          default <build>/tools/gshmemcc; GSHMEM_BUILD=<build dir>
#                     (default: the source tree, an in-tree build)
#   GSHMEMRUN         default <build>/tools/gshmemrun, else mpirun
#   MPICC=mpicc  MPIRUN="mpirun --allow-run-as-root --oversubscribe --bind-to none"
#   CFLAGS            default "-O2 -ftree-vectorize -fvect-cost-model=dynamic" (both sides)
#   RUN_TIMEOUT=600   seconds before one run is killed
#   GSHMEM_DISABLE_P2P=1  the gshmem side through the proxy channels (UCX)
#   STAGED=1          also the staged rounds (moe_bench -c: recv_x and expert_y
#                     arrays of the caller; impl gshmem_staged)
# Every JSON line, tagged "rep", goes to perftest/results/moe-<stamp>.jsonl,
# launcher output to the .log beside it.  The acceptance: at the
# cpu shape on 4 PEs (load/store), gshmem dispatch + combine <= 0.5 x MPI's
# (issue 26; issue 6 asked 0.67)
# (PASS/FAIL, informative; the script fails only when nothing could be
# built or run).  On a shared machine, run it as `nice -n -19 ...` (both
# sides alike) so that other jobs disturb the figures less.
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${GSHMEM_BUILD:-$src}
reps=${REPS:-5}
np=${NP:-4}
shape=${SHAPE:-cpu}
modes=${MODES:-ll normal}
route=${ROUTE:-random}
cflags=${CFLAGS:--O2 -ftree-vectorize -fvect-cost-model=dynamic}
run_timeout=${RUN_TIMEOUT:-600}
mpicc=${MPICC:-mpicc}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
mpirun_cmd=${MPIRUN:-mpirun $root --oversubscribe --bind-to none}
gshmemcc=${GSHMEMCC:-$build/tools/gshmemcc}
if [ -n "${GSHMEMRUN:-}" ]; then
    gshmemrun=$GSHMEMRUN
elif [ -x "$build/tools/gshmemrun" ]; then
    gshmemrun="$build/tools/gshmemrun"
else
    gshmemrun=$mpirun_cmd
fi
bin=$build/perftest/build/moe
results_dir=$here/results
stamp=$(date +%Y%m%d-%H%M%S)
results=$results_dir/moe-$stamp.jsonl
log=$results_dir/moe-$stamp.log
mkdir -p "$bin" "$results_dir"
: >"$results"
: >"$log"

say() { echo "moe_compare: $*"; }

args="-s $shape -r $route"
if [ -n "${QUICK:-}" ]; then
    args="$args -n ${ITERS:-20} -w ${WARMUP:-2}"
else
    [ -n "${ITERS:-}" ] && args="$args -n $ITERS"
    [ -n "${WARMUP:-}" ] && args="$args -w $WARMUP"
fi
moe_src="$src/libs/moe/gshmem_moe.c $src/libs/moe/moe.c $src/libs/moe/moe_ll.c $src/libs/moe/moe_normal.c
         $src/libs/moe/moe_data.c $src/libs/moe/moe_run.c"

say "building into $bin"
# shellcheck disable=SC2086
if ! "$gshmemcc" $cflags -std=gnu11 -I"$src/libs/moe" -I"$src/device" -I"$src/include" \
        -o "$bin/moe_bench" "$src/perftest/moe_bench.c" $moe_src >>"$log" 2>&1; then
    say "cannot build moe_bench with $gshmemcc (see $log)"
    exit 1
fi
# shellcheck disable=SC2086
if ! $mpicc $cflags -std=gnu11 -I"$src/libs/moe" -o "$bin/moe_mpi_baseline" \
        "$src/perftest/moe_mpi_baseline.c" "$src/libs/moe/moe_data.c" >>"$log" 2>&1; then
    say "cannot build moe_mpi_baseline with $mpicc (see $log)"
    exit 1
fi

# run SIDE REP LAUNCHER... PROGRAM ARGS: JSON lines, tagged, into $results.
run() {
    local side=$1 rep=$2
    shift 2
    echo "== $side rep $rep: $*" >>"$log"
    # shellcheck disable=SC2068
    timeout -k 10 "$run_timeout" $@ 2>>"$log" |
        sed -n "s/^{\(.*\)}\$/{\"side\":\"$side\",\"rep\":$rep,\1}/p" >>"$results"
    local status=${PIPESTATUS[0]}
    [ "$status" -eq 0 ] || say "$side rep $rep failed (status $status; see $log)"
}

say "$reps runs of each side, $np PEs, shape $shape, gshmem modes: $modes"
for ((rep = 1; rep <= reps; rep++)); do
    sides="gshmem mpi"
    [ $((rep % 2)) -eq 0 ] && sides="mpi gshmem"
    for side in $sides; do
        if [ "$side" = mpi ]; then
            # shellcheck disable=SC2086
            run mpi "$rep" $mpirun_cmd -np "$np" "$bin/moe_mpi_baseline" $args
        else
            for mode in $modes; do
                # shellcheck disable=SC2086
                run gshmem "$rep" $gshmemrun -np "$np" "$bin/moe_bench" -m "$mode" $args
                if [ -n "${STAGED:-}" ]; then
                    # shellcheck disable=SC2086
                    run gshmem "$rep" $gshmemrun -np "$np" "$bin/moe_bench" -m "$mode" -c $args
                fi
            done
        fi
    done
done

python3 - "$results" "$shape" "$np" <<'EOF'
import json, statistics, sys
path, shape, np_ = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [json.loads(l) for l in open(path) if l.strip()]
by = {}
for r in rows:
    key = (r["impl"], r["mode"])
    by.setdefault(key, {}).setdefault(r["bench"], []).append(r)
def med(v):
    return statistics.median(v) if v else float("nan")
print(f"\nMoE dispatch + combine, shape {shape}, {np_} PEs: median over runs of each run's median"
      f" (p99 likewise); GB/s per PE as DeepEP counts it")
print(f"{'impl':<28}{'runs':>5}{'dispatch us':>13}{'p99':>10}{'GB/s':>7}{'combine us':>13}"
      f"{'p99':>10}{'GB/s':>7}{'total us':>11}{'p99':>10}  verified")
tot, lay, paths = {}, {}, {}
for key in sorted(by, key=lambda k: (k[0] != "mpi_alltoallv", k)):
    b = by[key]
    d, c, t = b.get("moe_dispatch", []), b.get("moe_combine", []), b.get("moe_total", [])
    ver = all(r["verified"] for r in d + c + t) and bool(t)
    tot[key] = med([r["median_us"] for r in t])
    lay[key] = med([r["median_us"] for r in b.get("moe_layer", [])])
    paths[key] = t[0].get("path", "") if t else ""
    name = key[0] if key[0] == "mpi_alltoallv" else f"{key[0]} {key[1]}"
    if d and d[0].get("path"):
        name += f" ({d[0]['path']})" if key[0] != "mpi_alltoallv" else ""
    print(f"{name:<28}{len(t):>5}"
          f"{med([r['median_us'] for r in d]):>13.1f}{med([r['p99_us'] for r in d]):>10.1f}"
          f"{med([r['gbps'] for r in d]):>7.2f}"
          f"{med([r['median_us'] for r in c]):>13.1f}{med([r['p99_us'] for r in c]):>10.1f}"
          f"{med([r['gbps'] for r in c]):>7.2f}"
          f"{tot[key]:>11.1f}{med([r['p99_us'] for r in t]):>10.1f}  {'yes' if ver else 'NO'}")
base = [v for k, v in tot.items() if k[0] == "mpi_alltoallv"]
if base:
    print()
    for key, v in sorted(tot.items()):
        if key[0] == "mpi_alltoallv":
            continue
        ratio = v / base[0]
        verdict = ""
        if paths.get(key) == "proxy":
            verdict = "  (proxy path: information only)"
        elif shape == "cpu" and np_ == 4:
            verdict = "  PASS" if ratio <= 0.5 else "  FAIL"
            verdict += " (issue 26: <= 0.5 at the cpu shape, 4 PEs)"
        print(f"{key[0]} {key[1]}: dispatch + combine = {ratio:.2f} x MPI_Alltoallv"
              f" ({1 / ratio:.2f}x its throughput){verdict}")
    # The toy expert is not in the figures above; where the payload is read
    # (pulled from its source, or copied in) changes its time, so the whole
    # layer is printed too, both sides' expert included.
    lbase = [v for k, v in lay.items() if k[0] == "mpi_alltoallv"]
    for key, v in sorted(lay.items()):
        if key[0] == "mpi_alltoallv" or not lbase or v != v or lbase[0] != lbase[0]:
            continue
        print(f"{key[0]} {key[1]}: dispatch + expert + combine = {v:.1f} us,"
              f" {v / lbase[0]:.2f} x MPI's {lbase[0]:.1f}")
EOF
say "results: $results"
