# tests/python/env.sh - sourced by the Python tests' scripts: sets top and
# build (the source and build trees), puts the build's python/ on
# PYTHONPATH, and exits 77 with a SKIP line naming the script when python3
# cannot import what it needs.  Set py_needs (default "numpy, torch") and
# py_name (the script's name) before sourcing.
top=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$top}
# Debian's torch and numpy are found the way the package finds them (_deps.py).
if ! why=$(cd "$top/python/gshmem" && python3 -c \
    "import _deps; _deps.ensure(); import ${py_needs:-numpy, torch}" 2>&1 | tail -n 1); then
    echo "$py_name: SKIP: python3 cannot import ${py_needs:-numpy, torch} ($why)"
    exit 77
fi
PYTHONPATH=$top/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
