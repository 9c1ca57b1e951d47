#!/bin/sh
# Configure (once) and build gshmem in the source tree.
set -e
cd "$(dirname "$0")/.."
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure --prefix="${GSHMEM_PREFIX:-$PWD/_install}" ${GSHMEM_CONFIGURE_FLAGS:-}
make -j"$(nproc)" ${V:+V=$V}
