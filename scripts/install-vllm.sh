#!/bin/sh
# scripts/install-vllm.sh [DIR] - a virtual environment (default
# /var/tmp/gshmem-vllm) where vLLM's own KVConnectorBase_V1 imports, for
# tests/python/py-vllm-real.sh: gshmem.kv.vllm.GshmemConnector driven as
# subclass of the real base class.  Debian 12's torch (1.13) is too old
# for vLLM 0.34 (torch.distributed._functional_collectives), and vLLM's
# full requirements do not resolve from PyPI alone (flashinfer-python
# 0.7.3), so: vLLM without its requirements, torch and numpy from PyPI,
# and the modules the connector's import path loads.  About 6 GB and a
# few minutes: not part of scripts/test.sh's install (CI keeps to its
# 30 minutes); py-vllm-real.sh skips, saying so, without it.
set -eu
dir=${1:-/var/tmp/gshmem-vllm}
py=python3
[ -x "$dir/bin/python" ] || "$py" -m venv "$dir"
pip="$dir/bin/python -m pip"
$pip install -q --no-deps "vllm==0.34.0"
# torch 2 and what vllm.distributed.kv_transfer's import path loads.
$pip install -q torch numpy pydantic transformers msgspec cloudpickle pyzmq psutil regex \
    cachetools blake3 typing_extensions filelock pyyaml einops urllib3 aiohttp requests pillow \
    pybase64 cbor2 uvloop py-cpuinfo prometheus_client llguidance xgrammar
"$dir/bin/python" -c 'from vllm.distributed.kv_transfer.kv_connector.v1.base import KVConnectorBase_V1' \
    2>&1 | tail -n 1
echo "install-vllm.sh: $dir: vLLM's KVConnectorBase_V1 imports"
