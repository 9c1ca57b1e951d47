#!/bin/sh
# tests/rdma/rig-guest.sh - the part of rig.tap that runs inside guest.sh's
# guest: reads DIR/jobs, lines "N<TAB>ENV<TAB>COMMAND" (ENV: NAME=VALUE
# words, or "-"), and runs each COMMAND with ENV in the current folder,
# writing its output to DIR/N.log and its exit status to DIR/N.status, one
# after the other, each bounded by timeout.
#
#   rig-guest.sh DIR SECONDS_PER_JOB
set -u
dir=${1:?usage: rig-guest.sh DIR SECONDS_PER_JOB}
limit=${2:?usage: rig-guest.sh DIR SECONDS_PER_JOB}
tab=$(printf '\t')
while IFS=$tab read -r n envs cmd; do
    [ "$envs" = - ] && envs=
    echo "rig-guest.sh: [$n] $envs $cmd"
    start=$(date +%s)
    # $envs is split into NAME=VALUE words on purpose.
    # shellcheck disable=SC2086
    env $envs timeout -k 10 "$limit" sh -c "$cmd" >"$dir/$n.log" 2>&1 </dev/null
    s=$?
    echo "rig-guest.sh: [$n] exit $s after $(($(date +%s) - start)) s"
    echo "$s" >"$dir/$n.status"
done <"$dir/jobs"
