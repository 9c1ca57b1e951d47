#!/bin/sh
# gshmem.kv.vllm.GshmemConnector between two vLLM-shaped instances, each a
# process of its own started without a launcher (a one-PE gshmem job):
# vllm_connector.py prefill and decode, in vLLM's call order (the script
# says what each checks).  Exit 77 with a SKIP line when python3 cannot
# import numpy and torch.
set -u
py_name=py-vllm-connector.sh
. "$(dirname "$0")/env.sh"
CUDA_VISIBLE_DEVICES= # host memory caches
export CUDA_VISIBLE_DEVICES
d=$(mktemp -d /var/tmp/gshmem-vllm-XXXXXX) || exit 99
trap 'rm -rf "$d"' EXIT
limit=$((${GSHMEM_TEST_TIMEOUT:-60} * 2))
timeout -k 10 "$limit" python3 "$top/tests/python/vllm_connector.py" prefill "$d" &
p=$!
timeout -k 10 "$limit" python3 "$top/tests/python/vllm_connector.py" decode "$d"
rd=$?
wait $p
rp=$?
fail=0
[ $rp -eq 0 ] || { echo "py-vllm-connector.sh: FAIL: the prefill side exited $rp" >&2; fail=1; }
[ $rd -eq 0 ] || { echo "py-vllm-connector.sh: FAIL: the decode side exited $rd" >&2; fail=1; }
exit $fail
