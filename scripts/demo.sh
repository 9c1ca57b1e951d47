#!/bin/sh
# Fresh Debian 12 to a running example: install what is missing, build,
# install into ./_install, then build examples/ring.c with gshmemcc and run it
# on 4 PEs with gshmemrun.
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
sh scripts/build.sh
make install >/dev/null
prefix=${GSHMEM_PREFIX:-$PWD/_install}
"$prefix/bin/gshmemcc" -O2 examples/ring.c -o _install/ring
"$prefix/bin/gshmemrun" -np 4 ./_install/ring
