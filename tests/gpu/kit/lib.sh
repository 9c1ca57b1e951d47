# tests/gpu/kit/lib.sh - the host-side logic of tests/gpu/kit.sh, sourced by
# it and by tests/gpu/kit_selftest.sh (which runs it on canned steps in
# make check, without a GPU): argument parsing, the step runner with its
# timeouts, the figures, the final table, the missing-library check.
# shellcheck shell=sh

# kit_args ARGS...: sets kit_cmd (prepare | run | table), kit_only (the
# step-name pattern of --only, default *) and kit_budget (seconds for the
# whole run, --budget, default 300: the first run on a GPU machine fits a
# 15-minute lease with its start and a rerun).  Returns 2 with a usage line on
# anything else.
kit_usage() {
    echo "usage: kit.sh prepare | run [--only PATTERN] [--budget SECONDS] | table RESULTS FIGURES" >&2
    return 2
}
kit_args() {
    kit_cmd=
    kit_only='*'
    kit_budget=300
    kit_rest=
    [ $# -ge 1 ] || { kit_usage; return 2; }
    case $1 in
    prepare | run | table) kit_cmd=$1 ;;
    *) echo "kit.sh: unknown command '$1'" >&2; kit_usage; return 2 ;;
    esac
    shift
    while [ $# -gt 0 ]; do
        case $1 in
        --only) [ $# -ge 2 ] || { kit_usage; return 2; }; kit_only=$2; shift 2 ;;
        --budget)
            [ $# -ge 2 ] || { kit_usage; return 2; }
            case $2 in '' | *[!0-9]*) echo "kit.sh: --budget wants seconds, got '$2'" >&2; return 2 ;; esac
            kit_budget=$2
            shift 2
            ;;
        -*) echo "kit.sh: unknown option '$1'" >&2; kit_usage; return 2 ;;
        *) kit_rest="$kit_rest $1"; shift ;;
        esac
    done
    if [ "$kit_cmd" = table ] && [ "$(echo $kit_rest | wc -w)" -ne 2 ]; then
        kit_usage
        return 2
    fi
    return 0
}

# The results: one line per step, "NAME<TAB>VERDICT<TAB>SECONDS<TAB>NOTE",
# in $kit_results; the figures "NAME<TAB>GSHMEM<TAB>NVSHMEM<TAB>COPY" in
# $kit_figures.  kit_init DIR makes both (empty) and the step logs' folder.
kit_init() {
    kit_dir=$1
    mkdir -p "$kit_dir/logs" || return 1
    kit_results=$kit_dir/results.tsv
    kit_figures=$kit_dir/figures.tsv
    : > "$kit_results"
    : > "$kit_figures"
    kit_t0=$(date +%s)
}

# kit_record NAME VERDICT SECONDS NOTE: one results line, and the same row
# as the final table prints it on stdout at once (a run cut short still
# shows every step that ended).
kit_record() {
    _note=$(echo "$4" | tr '\t\n' '  ' | sed 's/ *$//' | cut -c 1-160)
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$_note" >> "$kit_results"
    printf '%-8s %-40s %5ss  %s\n' "$2" "$1" "$3" "$_note"
}

# kit_step NAME LIMIT KIND CMD...: runs CMD under `timeout -k 5 LIMIT` with
# its output in logs/NAME.log, and records its verdict.  KIND is
#   ok       pass on exit 0 (77: SKIP, the last line says why)
#   bad=RE   a bad_* program: pass on a nonzero exit (not the timeout) with
#            a line of its output matching the extended regex RE
#   bad:N=RE the same, and the exit status must be N (its EXPECT_STATUS: a
#            global exit's status)
# A run past LIMIT is TIMEOUT (a failure); a step not matching --only, or
# one that would start past the run's budget, is SKIP.
kit_step() {
    _name=$1 _limit=$2 _kind=$3
    shift 3
    # shellcheck disable=SC2254
    case $_name in $kit_only) ;; *) return 0 ;; esac
    _left=$((kit_budget - ($(date +%s) - kit_t0)))
    if [ "$_left" -lt 5 ]; then
        kit_record "$_name" SKIP 0 "the run's budget of $kit_budget s is spent"
        return 0
    fi
    [ "$_limit" -gt "$_left" ] && _limit=$_left
    _log=$kit_dir/logs/$_name.log
    # timeout(1) execs its command: a shell function would exit 127 ("No
    # such file") and leave an empty column behind a plain FAIL.
    case $(command -V "$1" 2>/dev/null) in
    *function*)
        kit_record "$_name" FAIL 0 "kit: '$1' is a shell function, timeout cannot run it: make it a script"
        return 1
        ;;
    esac
    _s0=$(date +%s)
    timeout -k 5 "$_limit" "$@" > "$_log" 2>&1
    _rc=$?
    _dt=$(($(date +%s) - _s0))
    if [ "$_rc" -eq 124 ] || [ "$_rc" -eq 137 ]; then
        kit_record "$_name" TIMEOUT "$_dt" "ran past $_limit s: $(tail -n 1 "$_log")"
        return 1
    fi
    case $_kind in
    ok)
        if [ "$_rc" -eq 0 ]; then
            kit_record "$_name" PASS "$_dt" ""
        elif [ "$_rc" -eq 77 ]; then
            kit_record "$_name" SKIP "$_dt" "$(tail -n 1 "$_log")"
        else
            kit_record "$_name" FAIL "$_dt" "exit $_rc: $(grep -m 1 -E 'FAIL|gshmem: PE|error' "$_log" || tail -n 1 "$_log")"
            return 1
        fi
        ;;
    bad=* | bad:*=*)
        _re=${_kind#*=}
        _want=
        case $_kind in bad:*) _want=${_kind#bad:} _want=${_want%%=*} ;; esac
        if [ "$_rc" -eq 0 ] || ! grep -Eq -e "$_re" "$_log"; then
            kit_record "$_name" FAIL "$_dt" "exit $_rc, expected a failure matching: $_re"
            return 1
        elif [ -n "$_want" ] && [ "$_rc" -ne "$_want" ]; then
            kit_record "$_name" FAIL "$_dt" "exit $_rc, expected exit status $_want (EXPECT_STATUS)"
            return 1
        fi
        kit_record "$_name" PASS "$_dt" "failed as expected (exit $_rc)"
        ;;
    *)
        kit_record "$_name" FAIL 0 "kit: unknown step kind '$_kind'"
        return 1
        ;;
    esac
    return 0
}

# kit_skip NAME WHY: a step that cannot run here.
kit_skip() {
    # shellcheck disable=SC2254
    case $1 in $kit_only) kit_record "$1" SKIP 0 "$2" ;; esac
}

# kit_figure NAME GSHMEM NVSHMEM COPY: one row of figures ("-": none).
kit_figure() {
    printf '%s\t%s\t%s\t%s\n' "$1" "${2:--}" "${3:--}" "${4:--}" >> "$kit_figures"
}

# kit_json_value FILE BENCH SCOPE BYTES METRIC: the metric of the first JSON
# line of FILE with those bench, scope (any when "") and bytes; "-" if none.
kit_json_value() {
    awk -v b="\"bench\":\"$2\"" -v s="\"scope\":\"$3\"" -v n="\"bytes\":$4," -v m="\"$5\":" '
        index($0, b) && (s == "\"scope\":\"\"" || index($0, s)) && index($0, n) {
            i = index($0, m); if (!i) next
            v = substr($0, i + length(m)); sub(/[,}].*/, "", v); print v; found = 1; exit
        }
        END { if (!found) print "-" }' "$1" 2>/dev/null || echo -
}

# kit_table RESULTS FIGURES: the one table the run ends with; exit status 0
# when no step failed or timed out, else 1.
kit_table() {
    awk -F '\t' '
        { n++; c[$2]++; printf "%-8s %-40s %5ss  %s\n", $2, $1, $3, $4 }
        END {
            printf "kit: %d steps: %d PASS, %d FAIL, %d TIMEOUT, %d SKIP\n",
                n, c["PASS"], c["FAIL"], c["TIMEOUT"], c["SKIP"]
        }' "$1"
    if [ -s "$2" ]; then
        printf '%-40s %14s %14s %14s\n' figure gshmem NVSHMEM copy-kernel
        awk -F '\t' '{ printf "%-40s %14s %14s %14s\n", $1, $2, $3, $4 }' "$2"
    fi
    ! grep -Eq "$(printf '\t')(FAIL|TIMEOUT)$(printf '\t')" "$1"
}

# kit_missing_libs FILE...: the shared libraries FILEs need that the loader
# cannot find here (ldd's "not found"), one per line; nothing when none.
# With KIT_LDSO set (a carried loader and its --library-path, see
# kit_glibc_older), that loader lists them instead of the system's ldd.
kit_missing_libs() {
    for _f in "$@"; do
        if [ -n "${KIT_LDSO:-}" ]; then
            # shellcheck disable=SC2086
            $KIT_LDSO --list "$_f" 2>&1
        else
            ldd "$_f" 2>/dev/null
        fi | awk '/not found/ { print $1 }'
    done | sort -u
}

# kit_glibc_older HAVE NEED: true when glibc version HAVE is older than
# NEED (both like 2.36).  The bundle is built on Debian 12 (glibc 2.36); a
# GPU image with an older glibc cannot load its programs with its own
# loader, so kit.sh run then starts them with the loader and C library the
# bundle carries (bundle/glibc), which run on any kernel the driver does.
kit_glibc_older() {
    [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$1" ]
}

# kit_regs_over THREADS PATTERN FILE...: from ptxas -v output (nvcc
# -Xptxas -v) in FILEs, one line per entry function whose name matches the
# awk regex PATTERN and that needs more registers than a block of THREADS
# threads may have (65536 a block; a warp's registers come in units of
# 256), such a launch being refused; nothing when every one fits.
kit_regs_over() {
    _threads=$1 _pat=$2
    shift 2
    awk -v want="$_threads" -v pat="$_pat" '
        /Compiling entry function/ {
            fn = $0; sub(/.*entry function .\047*/, "", fn); sub(/\047.*/, "", fn)
            arch = $0; sub(/.*for .\047*/, "", arch); sub(/\047.*/, "", arch)
            next
        }
        /Used [0-9]+ registers/ && fn != "" {
            r = $0; sub(/.*Used /, "", r); sub(/ registers.*/, "", r); r += 0
            per_warp = int((r * 32 + 255) / 256) * 256
            most = int(65536 / per_warp) * 32
            if (most > 1024) most = 1024
            if (fn ~ pat && most < want)
                printf "%s (%s): %d registers, at most %d threads a block, launched with %d\n", fn, arch, r, most, want
            fn = ""
        }' "$@" | sort -u
}

# kit_pstep NAME LIMIT KIND CMD...: kit_step in the background, at most
# $kit_par (4) at once; kit_pwait waits for those still running.  Only for
# steps that may share the GPU (1-PE correctness programs).
kit_par=4
kit_pids=
kit_pstep() {
    kit_step "$@" &
    kit_pids="$kit_pids $!"
    # shellcheck disable=SC2086
    [ "$(echo $kit_pids | wc -w)" -ge "$kit_par" ] && kit_pwait
    return 0
}
kit_pwait() {
    # shellcheck disable=SC2086
    [ -n "$kit_pids" ] && wait $kit_pids
    kit_pids=
    return 0
}

# kit_bg_start NAME CMD...: start CMD now in the background (the NVSHMEM
# build, minutes of nvcc), its output in logs/NAME.log; kit_bg_wait NAME
# LIMIT records it as a step (kind ok) once it ends, or TIMEOUT (and kills
# it) when it runs LIMIT seconds past the call.
kit_bg_start() {
    _n=$1
    shift
    rm -f "$kit_dir/$_n.rc"
    date +%s > "$kit_dir/$_n.t0"
    ("$@" > "$kit_dir/logs/$_n.log" 2>&1; echo $? > "$kit_dir/$_n.rc") &
    echo $! > "$kit_dir/$_n.pid"
}
kit_bg_wait() {
    _n=$1 _lim=$2 _w=0
    # shellcheck disable=SC2254
    case $_n in $kit_only) ;; *) return 0 ;; esac
    while [ ! -f "$kit_dir/$_n.rc" ] && [ "$_w" -lt "$_lim" ]; do
        sleep 1
        _w=$((_w + 1))
    done
    _dt=$(($(date +%s) - $(cat "$kit_dir/$_n.t0")))
    if [ ! -f "$kit_dir/$_n.rc" ]; then
        kill -- "$(cat "$kit_dir/$_n.pid")" 2> /dev/null
        kit_record "$_n" TIMEOUT "$_dt" "still running $_lim s after it was waited for"
        return 1
    fi
    _rc=$(cat "$kit_dir/$_n.rc")
    _log=$kit_dir/logs/$_n.log
    if [ "$_rc" -eq 0 ]; then
        kit_record "$_n" PASS "$_dt" ""
    elif [ "$_rc" -eq 77 ]; then
        kit_record "$_n" SKIP "$_dt" "$(tail -n 1 "$_log")"
    else
        kit_record "$_n" FAIL "$_dt" "exit $_rc: $(tail -n 1 "$_log")"
        return 1
    fi
    return 0
}

# kit_find_tool NAME: the path of a CUDA tool (nvcc, compute-sanitizer):
# on PATH, else under $CUDA_HOME (bin/, compute-sanitizer/), else under
# /usr/local/cuda; nothing when none.
kit_find_tool() {
    command -v "$1" 2> /dev/null && return 0
    for _d in "${CUDA_HOME:-}" /usr/local/cuda; do
        [ -n "$_d" ] || continue
        for _f in "$_d/bin/$1" "$_d/compute-sanitizer/$1"; do
            [ -x "$_f" ] && { echo "$_f"; return 0; }
        done
    done
    return 1
}

# kit_archive DIR FILE: every log, the results and the figures of the run
# in DIR, packed as one tar.gz at FILE (a GPU run brings back few files).
kit_archive() {
    tar -czf "$2" -C "$1" . 2> /dev/null
}
