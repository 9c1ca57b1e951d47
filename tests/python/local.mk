# tests/python: the Python package (python/gshmem) under pytest, as one job
# per mode: the launcher at 2 and 4 PEs, the same with GSHMEM_DISABLE_P2P=1
# (UCX and the proxy channels), and launcher-free from a torch gloo group
# (gshmem.init(group=...)) and from a unique id (gshmem.init(uid=...)).
# run.sh skips (77) when python3 lacks torch, numpy or pytest.
PY_TESTS = tests/python/py-launcher-np2.sh tests/python/py-launcher-np4.sh \
	tests/python/py-group-np2.sh tests/python/py-uid-np3.sh tests/python/py-example-np4.sh \
	tests/python/py-bad-args-np2.sh tests/python/py-bad-exit-np2.sh \
	tests/python/py-after-finalize-np2.sh
# The vLLM connector between two instances (listen/connect: needs UCX);
# py-vllm-real.sh the same under vLLM itself (scripts/install-vllm.sh's
# environment; a skip without it).
if HAVE_UCX
PY_TESTS += tests/python/py-net-np2.sh tests/python/py-vllm-connector.sh \
	tests/python/py-vllm-real.sh
endif
TESTS += $(PY_TESTS)
# make install's gshmem.pth, in a scratch site folder (the script says what).
TESTS += tests/python/pth.sh
EXTRA_DIST += tests/python/run.sh tests/python/gloo_run.py tests/python/conftest.py \
	tests/python/ref.py tests/python/test_api.py tests/python/test_moe.py tests/python/test_gpu.py \
	tests/python/test_kv.py \
	tests/python/py-launcher-np2.sh tests/python/py-launcher-np4.sh tests/python/py-net-np2.sh \
	tests/python/py-group-np2.sh tests/python/py-uid-np3.sh tests/python/py-example-np4.sh \
	tests/python/py-bad-args-np2.sh tests/python/bad_alloc.py tests/python/bad_moe_config.py tests/python/pth.sh \
	tests/python/bad_coll_size.py \
	tests/python/py-bad-exit-np2.sh tests/python/bad_raise.py tests/python/bad_raise_moe.py \
	tests/python/bad_exit.py \
	tests/python/env.sh tests/python/py-after-finalize-np2.sh tests/python/after_finalize.py \
	tests/python/py-vllm-connector.sh tests/python/vllm_connector.py tests/python/py-vllm-real.sh
