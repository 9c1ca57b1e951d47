# perftest/kv_pairs.sh - sourced by kv_compare.sh, kv_notify.sh and kv_sweep.sh: what
# runs of two-process KV pairs share.  Sets py (NIXL's interpreter,
# PYTHON, default /tmp/nixlenv/bin/python), have_nixl (1 when it imports
# NIXL), reps (REPS, default 3), out (a scratch file for the JSON lines)
# and a fresh GSHMEM_KV_SECRET for the pairs' listen/connect.

# kv_have_nixl PYTHON: 0 when PYTHON imports NIXL's package (nixl or
# nixl_cu12) and numpy.
kv_have_nixl() {
    "$1" -c 'import numpy
try:
    import nixl._api
except ImportError:
    import nixl_cu12._api' 2>/dev/null
}

# kv_rounds REPS CONFIGS IMPLS FN: for each rep and each config
# ("name:field:field..."), FN IMPL FIELD... for each implementation, with
# $cfg the config's name; which implementation goes first turns with the
# rep.
kv_rounds() {
    for rep in $(seq 1 "$1"); do
        for c in $2; do
            cfg=${c%%:*}
            order=$3
            [ $((rep % 2)) = 0 ] && order=$(echo "$3" | tr ' ' '\n' | tac | tr '\n' ' ')
            for impl in $order; do
                # shellcheck disable=SC2046
                "$4" "$impl" $(echo "${c#*:}" | tr ':' ' ')
            done
        done
    done
}

py=${PYTHON:-/tmp/nixlenv/bin/python}
reps=${REPS:-3}
out=$(mktemp)
GSHMEM_KV_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export GSHMEM_KV_SECRET
have_nixl=1
kv_have_nixl "$py" || have_nixl=0
