#!/bin/sh
# tests/kv/exports.sh - libgshmem_kv.so exports the API of gshmem_kv.h and
# nothing else (it is built with -fvisibility=hidden): every defined
# dynamic symbol starts with gshmem_kv_, and every routine the header
# declares is among them.  Prints each stray or missing name.
top_src=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${GSHMEM_TOP_BUILDDIR:-$top_src}
lib=$top_build/libs/kv/.libs/libgshmem_kv.so
[ -r "$lib" ] || { echo "exports.sh: SKIP, no $lib (a static-only build)"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "exports.sh: SKIP, no nm (binutils)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nm -D --defined-only "$lib" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u > "$work/exported"
grep -o 'gshmem_kv_[a-z_]*(' "$top_src/include/gshmem_kv.h" | tr -d '(' | sort -u > "$work/declared"
status=0
grep -v '^gshmem_kv_' "$work/exported" | sed 's/^/exports.sh: not a gshmem_kv_ name: /' | grep . && status=1
comm -13 "$work/exported" "$work/declared" | sed 's/^/exports.sh: declared, not exported: /' | grep . && status=1
echo "exports.sh: $(wc -l < "$work/exported") exported, $(wc -l < "$work/declared") declared"
exit $status
