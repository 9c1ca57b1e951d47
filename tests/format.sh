#!/bin/sh
# tests/format.sh - every tracked C, C++ and CUDA file is formatted as
# .clang-format says (scripts/format.sh --check; it skips with 77 and a
# reason where clang-format is missing).  GSHMEM_FORMAT_BASE=REV checks only
# the files changed since REV.
top_src=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top_src" || exit 1
command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1 ||
    { echo "format.sh: SKIP, not a git checkout (the check lists the tracked files)"; exit 77; }
exec sh scripts/format.sh --check
