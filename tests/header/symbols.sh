#!/usr/bin/env bash
# symbols.sh LIBGSHMEM_SO [SYMBOLS_FILE] - the library exports the whole API.
#
# Every routine of openshmem-1.6-symbols.txt (deprecated ones included) and
# of legacy-symbols.txt must be a defined dynamic symbol, and so must its
# pshmem_ twin (the profiling interface), and the objects shmem.h refers to
# (SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED).  Prints each
# missing name, then a count; exit status 0 when none is missing.
#
# Without arguments (as in `make check`), the library is
# $GSHMEM_TOP_BUILDDIR/.libs/libgshmem.so; exit status 77 (skip) when there
# is none (a static-only build).
set -u
. "$(dirname "$0")/names.sh"

lib=${1:-}
if [ -z "$lib" ] && [ -n "${GSHMEM_TOP_BUILDDIR:-}" ]; then
    lib=$GSHMEM_TOP_BUILDDIR/.libs/libgshmem.so
    [ -r "$lib" ] || { echo "symbols.sh: SKIP, no $lib"; exit 77; }
fi
if [ -z "$lib" ] || [ ! -r "$lib" ]; then
    echo "usage: $0 LIBGSHMEM_SO [SYMBOLS_FILE]" >&2
    exit 2
fi
symbols=${2:-$(gshmem_find_symbols)} || exit 1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! nm -D --defined-only "$lib" > "$work/nm" 2> "$work/err"; then
    cat "$work/err" >&2
    exit 2
fi
awk 'NF >= 3 { print $3 }' "$work/nm" | sed 's/@.*//' | sort -u > "$work/exported"

{
    gshmem_names "$symbols" | sed 'p; s/^/p/'
    printf '%s\n' gshmem_ctx_default gshmem_team_world gshmem_team_shared
} | sort -u > "$work/wanted"

comm -23 "$work/wanted" "$work/exported" > "$work/missing"
wanted=$(wc -l < "$work/wanted")
missing=$(wc -l < "$work/missing")
sed 's/^/missing: /' "$work/missing"
echo "symbols: $((wanted - missing)) of $wanted exported by $lib, $missing missing"
[ "$missing" -eq 0 ]
