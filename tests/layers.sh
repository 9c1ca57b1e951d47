#!/bin/sh
# tests/layers.sh - the library's layers point one way and no circle of
# modules is longer than three (scripts/layers.py, docs/architecture.md).
# Reads the objects of the build tree, which `make check` has just built.
top_src=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
top_build=${GSHMEM_TOP_BUILDDIR:-$top_src}
command -v python3 >/dev/null 2>&1 || { echo "layers.sh: SKIP, no python3"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "layers.sh: SKIP, no nm (binutils)"; exit 77; }
exec python3 "$top_src/scripts/layers.py" --build "$top_build"
