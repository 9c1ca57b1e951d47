#!/bin/sh
# Fresh Debian 12 to a running example: install what is missing, build,
# install into ./_install, build examples/ring.c with gshmemcc and run it on
# 4 PEs with gshmemrun; then the main demo, the MoE dispatch/combine of
# examples/moe on 4 PEs (device kernels on host lanes where there is no GPU),
# which prints its shape, time per dispatch and combine, GB/s and "verified".
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
sh scripts/build.sh
make install >/dev/null
prefix=${GSHMEM_PREFIX:-$PWD/_install}
"$prefix/bin/gshmemcc" -O2 examples/ring.c -o _install/ring
"$prefix/bin/gshmemrun" -np 4 ./_install/ring
"$prefix/bin/gshmemrun" -np 4 ./examples/moe/moe
