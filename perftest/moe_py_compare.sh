#!/bin/sh
# perftest/moe_py_compare.sh - the Python MoE path (gshmem.moe.Buffer) against
# torch.distributed all_to_all_single on gloo (perftest/moe_py_bench.py, same
# run, same data, verified against each other) and against the C benchmark
# at the same shape (perftest/moe_bench -s cpu: 128 tokens/PE, H=2048,
# top-8, 8 experts per PE, fp8), REPS times with the order swapped each rep.
# Prints the medians and the two ratios the Python issue targets:
#   gloo / python time   (throughput ratio, target >= 3; the python run
#                         alternates rounds with gloo's, same data)
#   python-only / C time (the Python call overhead, target <= 1.15: a
#                         second Python run, gshmem's rounds back to back
#                         as the C rounds run, with the C benchmark's own
#                         toy expert between the timed phases, through
#                         ctypes)
# and, for information: python / C (the alternating run: a gloo round with
# torch's expert between gshmem's slows the phases after it, the cost of
# what runs between the calls, not of the calls); python-torch / C (torch's
# expert, ref.expert, instead of C's: its memory traffic slows the timed
# phases after it, perftest/moe_toy_py.c).
# PASS/FAIL are for information only.
#
#   NP (4), ITERS (100), REPS (3), MODE (ll|normal), GSHMEM_BUILD (the build
#   tree, default the source tree)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${GSHMEM_BUILD:-$src}
np=${NP:-4}
iters=${ITERS:-100}
reps=${REPS:-3}
mode=${MODE:-ll}
log=$(mktemp "${TMPDIR:-/tmp}/moe_py_compare.XXXXXX")
trap 'rm -f "$log"' EXIT
normal=""
[ "$mode" = normal ] && normal=--normal
PYTHONPATH=$src/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH

run_c() {
    "$build/tools/gshmemrun" -np "$np" "$build/perftest/moe_bench" -s cpu -m "$mode" \
        -n "$iters" -w 3 | grep '^{' >>"$log"
}
run_py() {
    toy="--toy-lib $build/perftest/.libs/libmoe_toy.so"
    python3 "$src/perftest/moe_py_bench.py" --np "$np" --iters "$iters" $normal $toy |
        grep '^{' >>"$log"
    # gshmem's rounds back to back, as moe_bench runs them: what of the gap
    # the gloo rounds between them leave
    python3 "$src/perftest/moe_py_bench.py" --np "$np" --iters "$iters" $normal $toy \
        --gshmem-only | grep '^{' |
        sed 's/"impl": "gshmem-python"/"impl": "gshmem-python-only"/' >>"$log"
    # and with torch's expert between the timed phases, as a torch model
    # would have (the gloo rounds' expert)
    python3 "$src/perftest/moe_py_bench.py" --np "$np" --iters "$iters" $normal --expert torch \
        --gshmem-only | grep '^{' | grep '"gshmem-python"' |
        sed 's/"impl": "gshmem-python"/"impl": "gshmem-python-torch"/' >>"$log"
}

r=0
while [ "$r" -lt "$reps" ]; do
    if [ $((r % 2)) -eq 0 ]; then run_c && run_py; else run_py && run_c; fi
    r=$((r + 1))
done

python3 - "$log" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
def med(impl, what):
    v = sorted(r["median_us"] for r in rows if r["impl"] == impl and r["bench"] == "moe_" + what)
    return v[len(v) // 2] if v else None
bad = [r for r in rows if not r.get("verified", False)]
print("impl            dispatch_us  combine_us    total_us   (median of reps' medians)")
for impl, name in (("gshmem", "C"), ("gshmem-python", "python"), ("gshmem-python-only", "python-only"),
                   ("gshmem-python-torch", "python-torch"), ("gloo", "gloo")):
    print("%-14s %12s %11s %11s" % (name, med(impl, "dispatch"), med(impl, "combine"),
                                    med(impl, "total")))
c, p, g = med("gshmem", "total"), med("gshmem-python", "total"), med("gloo", "total")
o = med("gshmem-python-only", "total")
if c and p and g:
    print("gloo / python: %.2fx (target >= 3: %s)" % (g / p, "PASS" if g / p >= 3 else "FAIL"))
if c and o:
    print("python-only / C: %.2fx (target <= 1.15: %s; gshmem's rounds back to back, as in C)" %
          (o / c, "PASS" if o / c <= 1.15 else "FAIL"))
if c and p:
    print("python / C:    %.2fx (alternating with gloo rounds)" % (p / c))
t = med("gshmem-python-torch", "total")
if c and t:
    print("python-torch / C: %.2fx (torch's expert between the phases, not C's)" % (t / c))
if bad:
    print("UNVERIFIED results: %d" % len(bad))
    sys.exit(1)
PY
