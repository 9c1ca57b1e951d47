#!/bin/sh
# tests/uid/dead_pe.sh - a PE that dies.  With the unique-id bootstrap no
# launcher cleans up: when one PE is killed (SIGKILL) mid-run, every other PE
# must end within DEAD_PE_LIMIT seconds (default 10), with a nonzero status
# and a line "gshmem: PE <n>: PE <victim> ... died: ...".  Three PEs; cases:
#   - PE 1 killed while PEs 0 and 2 wait in shmem_barrier_all;
#   - PE 0 (the rendezvous) killed while PEs 1 and 2 wait in the barrier;
#   - PE 2 killed while PEs 0 and 1 compute without calling gshmem.
# tests/netns/run.sh runs it across network namespaces: DEAD_PE_NS lists
# namespaces (rank r runs in the (r mod count)-th) and DEAD_PE_ADDR is rank
# 0's address there (default 127.0.0.1, no namespaces).
set -u
. "$(dirname "$0")/common.sh"

prog=$top_build/tests/uid/dead_pe
limit=${DEAD_PE_LIMIT:-10}
addr=${DEAD_PE_ADDR:-127.0.0.1}
namespaces=${DEAD_PE_NS:-}
n=3
if [ ! -x "$prog" ]; then
    fail "$prog is not built"
    finish dead_pe.sh
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/dead_pe.XXXXXX") || exit 1
trap 'pkill_all; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

# The programs still running (their pids from the "ready" lines).
pkill_all() {
    for f in "$work"/*/out.*; do
        [ -f "$f" ] || continue
        p=$(sed -n 's/^dead_pe: PE [0-9]* ready, pid \([0-9]*\)$/\1/p' "$f")
        [ -n "$p" ] && kill -KILL "$p" 2>/dev/null
    done
    return 0
}

# The command prefix that puts rank $1 in its namespace.
where() {
    [ -n "$namespaces" ] || return 0
    # shellcheck disable=SC2086
    set -- "$1" $namespaces
    _i=$(($1 % ($# - 1) + 2))
    eval "echo ip netns exec \${$_i}"
}

one_case() {
    victim=$1 mode=$2
    dir=$work/$victim-$mode
    what="PE $victim killed while the others compute"
    [ "$mode" = barrier ] && what="PE $victim killed while the others wait in shmem_barrier_all"
    mkdir -p "$dir"
    port=$(free_port)
    secret=$(new_secret)
    r=0
    while [ "$r" -lt "$n" ]; do
        (
            # shellcheck disable=SC2046
            GSHMEM_BOOTSTRAP=uid GSHMEM_UID=$addr:$port:$secret GSHMEM_UID_RANK=$r \
                GSHMEM_UID_SIZE=$n GSHMEM_UID_TIMEOUT=20 \
                $(where $r) "$prog" "$victim" "$mode" >"$dir/out.$r" 2>"$dir/err.$r"
            echo $? >"$dir/status.$r"
        ) &
        r=$((r + 1))
    done
    deadline=$(($(now_ms) + 30000))
    while [ "$(cat "$dir"/out.* 2>/dev/null | grep -c ' ready, pid ')" -lt "$n" ]; do
        if [ "$(now_ms)" -gt "$deadline" ] || [ -n "$(ls "$dir"/status.* 2>/dev/null)" ]; then
            fail "$what: the PEs did not start"
            show "$dir"/err.*
            pkill_all
            wait
            return
        fi
        sleep 0.05
    done
    vpid=$(sed -n 's/^dead_pe: PE [0-9]* ready, pid \([0-9]*\)$/\1/p' "$dir/out.$victim")
    kill -KILL "$vpid"
    t0=$(now_ms)
    deadline=$((t0 + limit * 1000))
    while :; do
        left=0
        r=0
        while [ "$r" -lt "$n" ]; do
            [ "$r" = "$victim" ] || [ -f "$dir/status.$r" ] || left=$((left + 1))
            r=$((r + 1))
        done
        [ "$left" -eq 0 ] && break
        if [ "$(now_ms)" -gt "$deadline" ]; then
            fail "$what: $left PE(s) still running $limit s after the kill"
            show "$dir"/err.*
            pkill_all
            wait
            return
        fi
        sleep 0.05
    done
    took=$(($(now_ms) - t0))
    wait
    bad=
    r=0
    while [ "$r" -lt "$n" ]; do
        if [ "$r" != "$victim" ]; then
            s=$(cat "$dir/status.$r")
            [ "$s" != 0 ] || bad="$bad; PE $r exited 0"
            grep -E -q "^gshmem: PE $r: PE $victim \(pid $vpid .*died" "$dir/err.$r" ||
                bad="$bad; PE $r printed no line naming PE $victim (pid $vpid) as dead"
            [ "$(grep -c '^gshmem: ' "$dir/err.$r")" -le 1 ] ||
                bad="$bad; PE $r printed more than one line"
            ! grep -q '^dead_pe: ' "$dir/err.$r" || bad="$bad; PE $r was not ended"
        fi
        r=$((r + 1))
    done
    if [ -n "$bad" ]; then
        fail "$what: ${bad#; }"
        show "$dir"/err.*
    else
        pass "$what: the others ended in $took ms, nonzero, naming PE $victim"
        show "$dir"/err.*
    fi
}

one_case 1 barrier
one_case 0 barrier
one_case 2 compute
finish dead_pe.sh
