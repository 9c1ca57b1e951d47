# perftest/kv_pairs.sh - sourced by kv_compare.sh and kv_notify.sh: what
# runs of two-process KV pairs share.

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
