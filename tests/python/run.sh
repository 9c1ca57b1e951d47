#!/bin/sh
# tests/python/run.sh MODE NP - the Python package's pytest tests (test_api.py,
# test_moe.py, test_gpu.py, test_kv.py) as one job of NP PEs.  MODE: launcher
# (tools/gshmemrun, PMIx), net (the same with GSHMEM_DISABLE_P2P=1: every
# other PE through UCX and the proxy), group or uid (gloo_run.py:
# torch.multiprocessing and a gloo group, no launcher).  Uses the build
# tree's libraries and python/ (PYTHONPATH).
# Exit 77 with a SKIP line when python3 lacks torch, numpy or pytest
# (scripts/install-deps.sh installs them); the time limit is 5 x
# GSHMEM_TEST_TIMEOUT (default 60 s): each process imports torch.
set -u
mode=${1:?usage: run.sh launcher|net|group|uid NP}
np=${2:?usage: run.sh MODE NP}
py=python3
limit=$((${GSHMEM_TEST_TIMEOUT:-60} * 5))
py_name=run.sh py_needs="numpy, torch, pytest"
. "$(dirname "$0")/env.sh"
PYTHONPATH=$PYTHONPATH:$top/tests/python
cd "$build" || exit 99
args="-q -p no:cacheprovider --color=no -x $top/tests/python/test_api.py $top/tests/python/test_moe.py $top/tests/python/test_gpu.py $top/tests/python/test_kv.py"
case $mode in
launcher | net)
    [ "$mode" = net ] && GSHMEM_DISABLE_P2P=1 && export GSHMEM_DISABLE_P2P
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" "$build/tools/gshmemrun" -np "$np" "$py" -m pytest $args
    ;;
group | uid)
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" "$py" "$top/tests/python/gloo_run.py" "$np" "$mode" $args
    ;;
*)
    echo "run.sh: unknown mode $mode" >&2
    exit 99
    ;;
esac
rc=$?
[ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "run.sh: $mode on $np PEs ran past ${limit} s"
exit $rc
