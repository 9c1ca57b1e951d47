# tests/uid/common.sh - sourced by the tests/uid and tests/netns scripts:
# where things are, a free TCP port, a job secret, a clock, and the
# PASS/FAIL/SKIP tally.
# shellcheck shell=sh

top_src=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${GSHMEM_TOP_BUILDDIR:-$top_src}
uidrun=$top_src/tests/uid/uidrun

n_pass=0
n_fail=0
n_skip=0

# A port from 20000 to 32767 that no socket uses now.  Below Linux's
# ephemeral range (32768-60999), so no outgoing connection (UCX's TCP
# transport, another test) can be holding it when rank 0 binds it.
free_port() {
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        _p=$(($(od -An -N2 -tu2 /dev/urandom) % 12768 + 20000))
        if command -v ss >/dev/null 2>&1 && [ -n "$(ss -Htan "sport = :$_p" 2>/dev/null)" ]; then
            continue
        fi
        break
    done
    echo "$_p"
}

# A new job secret for GSHMEM_UID=<ip>:<port>:<secret>: 32 hex digits from
# the kernel's random source.
new_secret() {
    od -An -N16 -tx1 /dev/urandom | tr -dc 0-9a-f
}

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}

pass() { n_pass=$((n_pass + 1)); echo "PASS: $*"; }
fail() { n_fail=$((n_fail + 1)); echo "FAIL: $*"; }
skip() { n_skip=$((n_skip + 1)); echo "SKIP: $*"; }

# Print the summary of script $1 and exit 1 (a failure), 77 (all skipped)
# or 0.
finish() {
    echo "$1: $n_pass passed, $n_fail failed, $n_skip skipped"
    [ "$n_fail" -gt 0 ] && exit 1
    [ "$n_pass" -eq 0 ] && [ "$n_skip" -gt 0 ] && exit 77
    exit 0
}

# show FILE...: a failed case's output, indented, into the log.
show() {
    for _f in "$@"; do
        [ -s "$_f" ] && sed "s|^|    $(basename "$_f"): |" "$_f"
    done
    return 0
}
