#!/bin/sh
# perftest/moe_count.sh - instruction counts (callgrind) of one PE's MoE
# rounds, the C benchmark against the Python path at the same shape
# (moe_bench -s cpu: 128 tokens/PE, H=2048, top-8, 8 experts per PE, fp8,
# low latency) on 2 PEs.  Counts do not depend on the machine's load, as
# times do.  PE 0 runs under callgrind, PE 1 plainly (so PE 0 hardly waits).
#   C:      the rounds after the first, one dump each (--dump-after=gshmem_moe_combine)
#   Python: instrumentation off through the start (importing torch under
#           callgrind takes many minutes), on for the timed rounds
#           (moe_py_profile.py --pause-file), one dump at the end
# Prints, per round: the kernels' host-lane work (moe_ll_dispatch,
# moe_ll_combine: the same code in both), the library calls' total (C:
# gshmem_moe_dispatch + gshmem_moe_combine; Python: everything called
# through ctypes, ffi_call: those two and the barriers) and the round's
# total.  Needs valgrind.  ITERS (3), OUT (a temporary folder).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${GSHMEM_BUILD:-$src}
iters=${ITERS:-3}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/moe_count.XXXXXX")}
py=$(python3 -c 'import sys; print(sys.executable)') # not pyenv's shim: callgrind follows no exec
cat > "$out/pe0.sh" <<'SH'
#!/bin/sh
# PE 0 under callgrind with the options in $VG, the others plainly.
if [ "${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}" = 0 ]; then exec valgrind --tool=callgrind $VG "$@"; fi
exec "$@"
SH
export LD_LIBRARY_PATH="$build/.libs:$build/libs/moe/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$src/python${PYTHONPATH:+:$PYTHONPATH}"
VG="--dump-after=gshmem_moe_combine --callgrind-out-file=$out/c.%p" \
    "$build/tools/gshmemrun" -np 2 -x LD_LIBRARY_PATH -x VG sh "$out/pe0.sh" \
    "$build/perftest/.libs/moe_bench" -s cpu -m ll -n "$iters" -w 1 > "$out/c.log" 2>&1
rm -f "$out/pause"
(while [ ! -f "$out/pause" ]; do sleep 1; done; callgrind_control -i on > "$out/ctl.log" 2>&1
 rm -f "$out/pause") &
VG="--instr-atstart=no --callgrind-out-file=$out/py.%p" \
    "$build/tools/gshmemrun" -np 2 -x VG -x PYTHONPATH sh "$out/pe0.sh" "$py" \
    "$src/perftest/moe_py_profile.py" --iters "$iters" --warmup 1 --pause-file "$out/pause" \
    > "$out/py.log" 2>&1
wait
incl() { # FILE FUNCTION-REGEX: the inclusive count of the first match
    callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$1" 2>/dev/null |
        grep -E "$2" | head -n 1 | awk '{ gsub(",", "", $1); print $1 }'
}
total() { sed -n 's/^totals: //p' "$1"; }
c=$(ls "$out"/c.*.2 | head -n 1) # the second round: warm
p=$(ls "$out"/py.* | grep -v '\.log$' | head -n 1)
cd_=$(incl "$c" ':moe_ll_dispatch '); cc_=$(incl "$c" ':moe_ll_combine ')
cl1=$(incl "$c" 'gshmem_moe.c:gshmem_moe_dispatch '); cl2=$(incl "$c" 'gshmem_moe.c:gshmem_moe_combine ')
pd=$(incl "$p" ':moe_ll_dispatch '); pc=$(incl "$p" ':moe_ll_combine '); pl=$(incl "$p" ':ffi_call ')
ct=$(total "$c"); pt=$(total "$p")
echo "per round           dispatch kernel  combine kernel  library calls  round total"
printf "C       %20s %15s %14s %12s\n" "$cd_" "$cc_" "$((cl1 + cl2))" "$ct"
printf "Python  %20s %15s %14s %12s\n" "$((pd / iters))" "$((pc / iters))" "$((pl / iters))" \
    "$((pt / iters))"
echo "(files in $out; the Python round total includes its toy expert in torch, the C one its loop in C)"
