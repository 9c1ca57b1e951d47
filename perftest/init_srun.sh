#!/bin/sh
# init_srun.sh - shmem_init's time under srun beside mpirun's.
#
# Builds init_time.c with gshmemcc, starts the tests' one-host Slurm
# (tests/slurm/rig.sh: munged, slurmctld, slurmd as root, state in a temporary
# folder), then runs init_time REPS times at 2 and 4 PEs under each launcher,
# alternating their order:
#   mpirun      gshmemrun outside an allocation (Open MPI's mpirun, PMIx)
#   srun-pmix   srun --mpi=pmix      (Slurm's PMIx server)
#   srun-pmi2   srun --mpi=pmi2      (the PMI-2 bootstrap)
# and prints, per launcher and PE count, the median of init_time (shmem_init
# alone) and launch_to_init (launcher start to the end of init), in ms.
# Every JSON line goes to results/init-srun-<stamp>.jsonl with its launcher.
# The daemons are stopped at the end, on failure too.
#
# Environment: REPS=5, GSHMEMCC (default ../tools/gshmemcc, else PATH),
# GSHMEMRUN (default ../tools/gshmemrun), RUN_TIMEOUT=120 seconds per run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
reps=${REPS:-5}
run_timeout=${RUN_TIMEOUT:-120}
gshmemcc=${GSHMEMCC:-$here/../tools/gshmemcc}
[ -x "$gshmemcc" ] || gshmemcc=$(command -v gshmemcc || echo)
gshmemrun=${GSHMEMRUN:-$here/../tools/gshmemrun}
[ -x "$gshmemrun" ] || gshmemrun=$(command -v gshmemrun || echo)
[ -n "$gshmemcc" ] && [ -n "$gshmemrun" ] || {
    echo "init_srun: no gshmemcc or gshmemrun (build gshmem first)" >&2
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/init-srun.XXXXXX") || exit 1
mkdir -p "$here/results"
results=$here/results/init-srun-$(date +%Y%m%d-%H%M%S).jsonl
log=${results%.jsonl}.log
. "$here/../tests/slurm/rig.sh"

"$gshmemcc" -O2 -o "$work/init_time" "$here/init_time.c" || {
    echo "init_srun: building init_time failed" >&2
    exit 1
}
# mpirun's runs happen with Slurm's variables out of the way.
if ! rig_start "$work/slurm"; then
    echo "init_srun: SKIP: no Slurm here: $rig_reason" >&2
    rm -rf "$work"
    exit 1
fi
trap 'rig_stop; rm -rf "$work"' EXIT

run_one() { # launcher npes rep
    out=$work/out
    case $1 in
    mpirun) cmd="env -u SLURM_JOB_ID GSHMEM_LAUNCHER=mpirun $gshmemrun -np $2" ;;
    srun-pmix) cmd="srun --mpi=pmix --overcommit -n $2" ;;
    srun-pmi2) cmd="srun --mpi=pmi2 --overcommit -n $2" ;;
    esac
    echo "=== rep $3 $1 np=$2" >>"$log"
    # shellcheck disable=SC2086  # cmd is a list of words
    BENCH_T0_NS=$(date +%s%N) timeout "$run_timeout" $cmd "$work/init_time" >"$out" 2>>"$log" </dev/null ||
        echo "init_srun: run FAILED: $1 np=$2 (see $log)" >&2
    grep '^{' "$out" | sed "s/^{/{\"launcher\":\"$1\",\"rep\":$3,/" >>"$results"
}

launchers="mpirun srun-pmix srun-pmi2"
rep=1
while [ $rep -le "$reps" ]; do
    order=$launchers
    [ $((rep % 2)) = 0 ] && order=$(echo "$launchers" | tr ' ' '\n' | tac | xargs)
    for np in 2 4; do
        for l in $order; do
            run_one "$l" "$np" "$rep"
        done
    done
    rep=$((rep + 1))
done

echo "results: $results"
python3 - "$results" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault((r["bench"], r["npes"], r["launcher"]), []).append(r["lat_ns"])
print("%-16s %4s %-10s %6s %10s" % ("bench", "npes", "launcher", "runs", "median ms"))
for (bench, npes, launcher), v in sorted(rows.items()):
    print("%-16s %4d %-10s %6d %10.2f" % (bench, npes, launcher, len(v), statistics.median(v) / 1e6))
PY
