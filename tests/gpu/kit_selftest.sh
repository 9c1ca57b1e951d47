#!/bin/sh
# tests/gpu/kit_selftest.sh - the GPU kit's host-side logic without a GPU
# (tests/gpu/kit/lib.sh, what tests/gpu/kit.sh run is made of): argument
# parsing, the step runner on canned steps (one that passes, one that
# fails, one that times out, a bad_* one that fails as expected, one that
# skips, one left out by --only and one past the budget), the JSON figure
# lookup, the final table and its verdict, and the missing-library check.
# kit.sh prepare itself is not run here: it builds for minutes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/gpu/kit/lib.sh
. "$here/kit/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-self.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fails=0
check() { # WHAT EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then
        echo "ok   $1"
    else
        echo "FAIL $1: expected '$2', got '$3'"
        fails=$((fails + 1))
    fi
}
verdict() { awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$kit_results"; }

# The carried-glibc decision.
kit_glibc_older 2.35 2.36 && r=older || r=not
check "glibc 2.35 is older than 2.36" older "$r"
kit_glibc_older 2.36 2.36 && r=older || r=not
check "glibc 2.36 is not older than 2.36" not "$r"
kit_glibc_older 2.39 2.36 && r=older || r=not
check "glibc 2.39 is not older than 2.36" not "$r"
kit_glibc_older 2.4 2.36 && r=older || r=not
check "glibc 2.4 is older than 2.36 (version order, not text)" older "$r"

# Arguments.
kit_args run --only 'dev*' --budget 30 2>/dev/null
check "run --only --budget parses" "0 run dev* 30" "$? $kit_cmd $kit_only $kit_budget"
kit_args prepare 2>/dev/null
check "prepare parses (budget 300 by default)" "0 prepare * 300" "$? $kit_cmd $kit_only $kit_budget"
kit_args frobnicate 2>/dev/null
check "an unknown command is refused" 2 $?
kit_args run --budget soon 2>/dev/null
check "a bad --budget is refused" 2 $?
kit_args table onlyone 2>/dev/null
check "table wants two files" 2 $?

# Steps.
kit_args run --budget 60
kit_init "$work/run"
kit_step pass 10 ok true
kit_step fail 10 ok sh -c 'echo "FAIL PE 1: something"; exit 1'
kit_step hang 1 ok sleep 30
kit_step bad_ok 10 'bad=gshmem: PE [0-9]+: x' sh -c 'echo "gshmem: PE 1: x failed" >&2; exit 1'
kit_step bad_hang 1 'bad=gshmem' sh -c 'echo gshmem; sleep 30'
kit_step bad_zero 10 'bad=gshmem' sh -c 'echo gshmem; exit 0'
kit_step skip 10 ok sh -c 'echo "no GPU here"; exit 77'
# EXPECT_STATUS: a global exit's status must be the one device code asked for.
kit_step bad_status 10 'bad:5=gshmem: PE [0-9]+: x' sh -c 'echo "gshmem: PE 1: x" >&2; exit 5'
kit_step bad_status1 10 'bad:5=gshmem: PE [0-9]+: x' sh -c 'echo "gshmem: PE 1: x" >&2; exit 1'
check "a passing step" PASS "$(verdict pass)"
check "a failing step" FAIL "$(verdict fail)"
check "a failing step's note" "exit 1: FAIL PE 1: something" \
    "$(awk -F '\t' '$1 == "fail" { print $4 }' "$kit_results")"
check "a step past its limit" TIMEOUT "$(verdict hang)"
check "a bad_ step that fails with its line" PASS "$(verdict bad_ok)"
check "a bad_ step that hangs" TIMEOUT "$(verdict bad_hang)"
check "a bad_ step that exits 0" FAIL "$(verdict bad_zero)"
check "a step that exits 77" SKIP "$(verdict skip)"
check "a bad_ step with its EXPECT_STATUS" PASS "$(verdict bad_status)"
check "a bad_ step with another status" FAIL "$(verdict bad_status1)"
check "a wrong status's note" "exit 1, expected exit status 5 (EXPECT_STATUS)" \
    "$(awk -F '\t' '$1 == "bad_status1" { print $4 }' "$kit_results")"
# A step that is a shell function: timeout(1) cannot run it (issue 30's
# empty NVSHMEM column), so kit_step refuses it with a note saying why.
kit_fn_step() { echo ran; }
kit_step fn 10 ok kit_fn_step
check "a step that is a shell function" FAIL "$(verdict fn)"
check "a function step's note" "kit: 'kit_fn_step' is a shell function, timeout cannot run it: make it a script" \
    "$(awk -F '\t' '$1 == "fn" { print $4 }' "$kit_results")"
# The NVSHMEM steps are scripts, never functions.
for f in nvshmem_build.sh nvshmem_run.sh; do
    check "kit/$f is a script" yes "$([ -f "$here/kit/$f" ] && echo yes)"
done
check "kit.sh defines no nvshmem_build function" 0 "$(grep -c '^nvshmem_build()' "$here/kit.sh")"
kit_only='x*'
kit_step other 10 ok true
check "a step left out by --only" "" "$(verdict other)"
kit_only='*'
kit_budget=0
kit_step late 10 ok true
check "a step past the run's budget" SKIP "$(verdict late)"
kit_skip nogpu "no compute-sanitizer"
check "kit_skip" SKIP "$(verdict nogpu)"

# Rows as each step ends: kit_record prints the table's row at once.
kit_budget=60
# (Its seconds are whole seconds of the clock: a step of a few ms that
# straddles a second shows 1s, so the figure is left out of the compare.)
check "a step's row is printed as it ends" "PASS     printed                                      Ns  " \
    "$(kit_step printed 10 ok true | sed 's/ [0-9][0-9]*s  $/ Ns  /')"

# Four at a time: each of 8 steps counts the steps running beside it
# (a marker file each, in $work/conc) and holds its marker 2 s.  At most
# four ever run together, and more than one does.  Counted, not timed: a
# loaded machine (make -j2 check, a build beside it) slows the steps
# down but does not change how they overlap.
kit_init "$work/par"
kit_budget=60
mkdir "$work/conc"
printf '%s\n' 'touch "$1/$$"' 'ls "$1" | wc -l >> "$1.seen"' 'sleep 2' 'rm -f "$1/$$"' \
    > "$work/conc.sh"
for i in 1 2 3 4 5 6 7 8; do kit_pstep "par$i" 30 ok sh "$work/conc.sh" "$work/conc" > /dev/null; done
kit_pwait
most=$(sort -n "$work/conc.seen" | tail -1)
check "8 parallel steps all recorded" 8 "$(grep -c PASS "$kit_results")"
check "parallel steps: at most four run together" yes "$([ "$most" -le 4 ] && echo yes)"
check "parallel steps: they do run together" yes "$([ "$most" -ge 2 ] && echo yes)"

# A background step: started at once, recorded when waited for.
kit_bg_start bgok sh -c 'sleep 1; echo built'
kit_bg_start bgfail sh -c 'echo "no nvcc"; exit 3'
kit_bg_start bgslow sleep 30
kit_bg_wait bgok 10 > /dev/null
kit_bg_wait bgfail 10 > /dev/null
kit_bg_wait bgslow 1 > /dev/null
check "a background step that passed" PASS "$(verdict bgok)"
check "a background step that failed" "FAIL exit 3: no nvcc" \
    "$(awk -F '\t' '$1 == "bgfail" { print $2, $4 }' "$kit_results")"
check "a background step still running" TIMEOUT "$(verdict bgslow)"

# The log archive: one file with the results and every step's log.
kit_archive "$work/par" "$work/kit-logs.tar.gz"
check "the archive holds the results" 1 "$(tar -tzf "$work/kit-logs.tar.gz" | grep -c '^\./results.tsv$')"
check "the archive holds each step's log" 1 "$(tar -tzf "$work/kit-logs.tar.gz" | grep -c '^\./logs/par8.log$')"

# Tools under CUDA_HOME when PATH lacks them.
mkdir -p "$work/cuda/bin" "$work/cuda/compute-sanitizer"
printf '#!/bin/sh\n' > "$work/cuda/bin/kit-fake-nvcc"
printf '#!/bin/sh\n' > "$work/cuda/compute-sanitizer/kit-fake-sanitizer"
chmod +x "$work/cuda/bin/kit-fake-nvcc" "$work/cuda/compute-sanitizer/kit-fake-sanitizer"
check "nvcc under CUDA_HOME/bin" "$work/cuda/bin/kit-fake-nvcc" "$(CUDA_HOME=$work/cuda kit_find_tool kit-fake-nvcc)"
check "compute-sanitizer under CUDA_HOME" "$work/cuda/compute-sanitizer/kit-fake-sanitizer" \
    "$(CUDA_HOME=$work/cuda kit_find_tool kit-fake-sanitizer)"
check "a tool nowhere" "" "$(CUDA_HOME=$work/cuda kit_find_tool kit-no-such-tool)"

# The run's order (the issue's plan): each stage's marker in kit.sh, in
# this order, so the cheap and telling steps come before the budget ends.
order=$(sed -n 's/^ *# stage \([0-9]*\): \([a-z0-9 -]*\).*/\1 \2/p' "$here/kit.sh" | sed 's/ *$//' | tr '\n' ',')
check "kit.sh runs its stages in the plan's order" \
    "1 gpu info,2 smoke np1,3 correctness np1,4 watcher and bad,5 moe default shape,6 python,7 core np2,8 proxy ring np2,9 sanitizers,10 benchmarks,11 nvshmem," \
    "$order"
check "the NVSHMEM build starts before the first stage" yes \
    "$([ "$(grep -n 'kit_bg_start nvshmem-build' "$here/kit.sh" | cut -d: -f1)" -lt \
        "$(grep -n '# stage 1:' "$here/kit.sh" | cut -d: -f1)" ] && echo yes)"

# Back to the first run's results for the table below.
kit_dir=$work/run kit_results=$work/run/results.tsv kit_figures=$work/run/figures.tsv

# Figures from JSON lines.
printf '%s\n' '{"bench":"dev_put_bw","impl":"gshmem","npes":2,"bytes":8,"iters":9,"scope":"warp","mode":"p2p","proxy_threads":1,"MBps":12.500}' \
    '{"bench":"dev_put_bw","impl":"gshmem","npes":2,"bytes":8,"iters":9,"scope":"thread","mode":"p2p","proxy_threads":1,"MBps":3.250}' > "$work/b.json"
check "a JSON figure" 3.250 "$(kit_json_value "$work/b.json" dev_put_bw thread 8 MBps)"
check "a missing JSON figure" - "$(kit_json_value "$work/b.json" dev_put_bw block 8 MBps)"
check "a missing JSON file" - "$(kit_json_value "$work/none.json" dev_put_bw block 8 MBps)"
kit_figure "put_bw thread 8B" 3.250 "" 9.0
check "a figure row" "$(printf 'put_bw thread 8B\t3.250\t-\t9.0')" "$(cat "$kit_figures")"

# The table: every step once, the counts, the figures, and the verdict.
kit_table "$kit_results" "$kit_figures" > "$work/table"
check "the table fails when a step failed" 1 $?
check "the table's count line" "kit: 13 steps: 4 PASS, 4 FAIL, 2 TIMEOUT, 3 SKIP" \
    "$(grep '^kit:' "$work/table")"
check "the table lists the timeout" 1 "$(grep -c '^TIMEOUT  hang ' "$work/table")"
check "the table has the figure" 1 "$(grep -c '^put_bw thread 8B .* 3.250 .* - .* 9.0$' "$work/table")"
printf 'a\tPASS\t1\t\nb\tSKIP\t0\twhy\n' > "$work/good.tsv"
kit_table "$work/good.tsv" /dev/null > /dev/null
check "the table passes with PASS and SKIP only" 0 $?

# Registers against the launch shape (ptxas -v output): the LL combine
# kernel at 182 registers fits 352 threads, not MoE's 512 (issue 30).
cat > "$work/ptxas.res" << 'EOT'
ptxas info    : Compiling entry function '_Z22moe_ll_combine_kernel10moe_args_t' for 'sm_90'
ptxas info    : Function properties for _Z22moe_ll_combine_kernel10moe_args_t
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 182 registers, used 1 barriers, 544 bytes cmem[0]
ptxas info    : Compiling entry function '_Z21moe_nm_expert_kernel10moe_args_t' for 'sm_90'
ptxas info    : Used 128 registers, used 1 barriers, 544 bytes cmem[0]
ptxas info    : Compiling entry function '_Z16moe_quiet_kernel' for 'sm_90'
ptxas info    : Used 200 registers, 544 bytes cmem[0]
EOT
check "a kernel with too many registers for 512 threads" \
    "_Z22moe_ll_combine_kernel10moe_args_t (sm_90): 182 registers, at most 352 threads a block, launched with 512" \
    "$(kit_regs_over 512 'moe_(ll|nm)_' "$work/ptxas.res")"
check "every kernel fits 352 threads" "" "$(kit_regs_over 352 'moe_(ll|nm)_' "$work/ptxas.res")"

# Missing libraries: a program that needs one nobody has.
if command -v cc > /dev/null 2>&1; then
    echo 'int lost(void); int main(void) { return lost(); }' > "$work/m.c"
    echo 'int lost(void) { return 0; }' > "$work/lost.c"
    if cc -shared -fPIC -o "$work/liblost.so" "$work/lost.c" &&
        cc -o "$work/m" "$work/m.c" -L"$work" -llost; then
        check "a missing library is named" liblost.so "$(kit_missing_libs "$work/m")"
        check "no missing library" "" "$(LD_LIBRARY_PATH=$work kit_missing_libs "$work/m")"
    fi
fi

echo "kit_selftest: $fails failed"
[ "$fails" -eq 0 ]
