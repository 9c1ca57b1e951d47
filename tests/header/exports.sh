#!/usr/bin/env bash
# exports.sh [LIBGSHMEM_SO] - libgshmem.so exports nothing but the public API.
#
# Every defined dynamic symbol must be public: a name with a public prefix
# (shmem_, shmemx_, gshmem_, gshmemx_, or pshmem_/pshmemx_/pgshmemx_, the
# profiling twins), a routine of the 1.6 symbol list or legacy-symbols.txt
# (start_pes, shmalloc, _my_pe, ...) or its p twin, or the one reserved
# internal prefix gshmemi_ (what inline device headers call in the library).
# Anything else would land in the user's namespace.  Prints each stray name;
# exit status 0 when there is none.
set -u
. "$(dirname "$0")/names.sh"

lib=${1:-}
if [ -z "$lib" ] && [ -n "${GSHMEM_TOP_BUILDDIR:-}" ]; then
    lib=$GSHMEM_TOP_BUILDDIR/.libs/libgshmem.so
    [ -r "$lib" ] || { echo "exports.sh: SKIP, no $lib (a static-only build)"; exit 77; }
fi
if [ -z "$lib" ] || [ ! -r "$lib" ]; then
    echo "usage: $0 LIBGSHMEM_SO" >&2
    exit 2
fi
symbols=$(gshmem_find_symbols) || exit 77

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nm -D --defined-only "$lib" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u > "$work/exported"
[ -s "$work/exported" ] || { echo "exports.sh: nm found no symbols in $lib"; exit 1; }
gshmem_names "$symbols" | sed 'p; s/^/p/' | sort -u > "$work/listed"

comm -23 "$work/exported" "$work/listed" |
    grep -Ev '^(p?(shmem|shmemx|gshmem|gshmemx)_|gshmemi_)' > "$work/stray"
n=$(wc -l < "$work/stray")
sed 's/^/exports.sh: not a public name: /' "$work/stray"
echo "exports.sh: $(wc -l < "$work/exported") exported, $n not public"
[ "$n" -eq 0 ]
