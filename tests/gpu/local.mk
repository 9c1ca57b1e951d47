# tests/gpu/local.mk - the device API on a real GPU.
#   compile.sh  every device header and tests/device program compiles as CUDA
#               for sm_90 with warnings as errors (wherever CUDA is
#               configured; it needs no GPU)
#   run.sh      builds the tests/device programs for the GPU found and runs
#               each on 2 PEs sharing it, one line per test; where there is
#               no GPU (or no CUDA build) it prints one line and skips (77)
EXTRA_DIST += tests/gpu/run.sh tests/gpu/compile.sh
TESTS += tests/gpu/compile.sh tests/gpu/run.sh
