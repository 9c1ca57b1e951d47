#!/bin/sh
# py-vllm-connector.sh's two instances with vLLM itself: GshmemConnector
# subclasses vLLM's KVConnectorBase_V1 (vllm_connector.py checks that the
# real base class is in use) under the interpreter of
# scripts/install-vllm.sh's environment (VLLM_PYTHON, default
# /var/tmp/gshmem-vllm/bin/python).  Exit 77 with a SKIP line when there
# is no such environment.
set -u
top=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
py=${VLLM_PYTHON:-/var/tmp/gshmem-vllm/bin/python}
if ! "$py" -c 'from vllm.distributed.kv_transfer.kv_connector.v1.base import KVConnectorBase_V1' \
    >/dev/null 2>&1; then
    echo "py-vllm-real.sh: SKIP: no vLLM environment at $py (scripts/install-vllm.sh makes one)"
    exit 77
fi
PYTHONPATH=$top/python${PYTHONPATH:+:$PYTHONPATH}
VLLM_CONNECTOR_WANT_VLLM=1 CUDA_VISIBLE_DEVICES=
export PYTHONPATH VLLM_CONNECTOR_WANT_VLLM CUDA_VISIBLE_DEVICES
d=$(mktemp -d /var/tmp/gshmem-vllm-real-XXXXXX) || exit 99
trap 'rm -rf "$d"' EXIT
limit=$((${GSHMEM_TEST_TIMEOUT:-60} * 4))
timeout -k 10 "$limit" "$py" "$top/tests/python/vllm_connector.py" prefill "$d" &
p=$!
timeout -k 10 "$limit" "$py" "$top/tests/python/vllm_connector.py" decode "$d"
rd=$?
wait $p
rp=$?
[ $rp -eq 0 ] && [ $rd -eq 0 ] && exit 0
echo "py-vllm-real.sh: FAIL: prefill exited $rp, decode $rd" >&2
exit 1
