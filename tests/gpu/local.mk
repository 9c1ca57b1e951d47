# tests/gpu/local.mk - the device API on a real GPU.
#   compile.sh      every device header and tests/device program compiles as
#                   CUDA for sm_90 with warnings as errors (wherever CUDA is
#                   configured; it needs no GPU)
#   run.sh          builds the tests/device programs for the GPU found and
#                   runs each on 2 PEs sharing it, one line per test; where
#                   there is no GPU (or no CUDA build) it prints one line and
#                   skips (77)
#   float16_ref.sh  the host-lane bfloat16 and half conversions give the bits
#                   of CUDA's own host conversions (CUDA headers, no GPU)
#   kit_selftest.sh the GPU kit's host-side logic (tests/gpu/kit/lib.sh: the
#                   arguments, the step runner and its timeouts, the table,
#                   the missing-library check) on canned steps, no GPU.
#                   kit.sh prepare is not in make check: it builds the whole
#                   CUDA bundle, many minutes on a small machine.
EXTRA_DIST += tests/gpu/run.sh tests/gpu/compile.sh tests/gpu/kit.sh tests/gpu/kit_selftest.sh \
	tests/gpu/float16_ref.sh tests/gpu/float16_ref.cpp \
	tests/gpu/kit/lib.sh tests/gpu/kit/pkg-config-noucx tests/gpu/kit/query.cu \
	tests/gpu/kit/nvshmem_build.sh tests/gpu/kit/nvshmem_run.sh \
	perftest/nvshmem/nvshmem_bench.cu perftest/nvshmem/run2.sh
TESTS += tests/gpu/compile.sh tests/gpu/run.sh tests/gpu/kit_selftest.sh tests/gpu/float16_ref.sh
