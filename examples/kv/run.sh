#!/bin/sh
# examples/kv/run.sh [BUILD] - disaggregated serving in two jobs: a prefill
# job of 2 PEs fills paged KV caches for a stream of requests and listens;
# a decode job of 2 PEs, started after it by its own launcher command,
# connects (a random secret), pulls each request's blocks as it comes and
# checks every byte.  One decode process kills itself midway; the decode
# job is started again and finishes the requests left.  Prints each side's
# lines: microseconds per request, GB/s, the connect time.  Exit 0 when
# every request arrived whole.  BUILD: the build tree (default: this one's).
set -u
build=${1:-${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
limit=${GSHMEM_TEST_TIMEOUT:-120}
run() { timeout -k 10 "$limit" "$build/tools/gshmemrun" "$@"; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
GSHMEM_KV_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export GSHMEM_KV_SECRET
run -np 2 "$build/examples/kv/disagg" prefill "$dir" &
prefill=$!
echo "run.sh: decode job 1 (decode PE 1 dies after 4 requests)"
run -np 2 "$build/examples/kv/disagg" -k 4 decode "$dir" 2>&1 | grep -v '^\(--\|mpirun\|Primary\|a non-zero\|  Process\|  Exit\|the job\|$\)'
echo "run.sh: decode job 2 (the requests left)"
run -np 2 "$build/examples/kv/disagg" decode "$dir"
decode=$?
wait $prefill
prc=$?
n=$(ls "$dir" | grep -c '^done\.')
echo "run.sh: $n of 32 requests done; prefill exited $prc, the second decode job $decode"
[ "$n" -eq 32 ] && [ $prc -eq 0 ] && [ $decode -eq 0 ]
