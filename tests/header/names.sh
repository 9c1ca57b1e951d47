# names.sh - sourced by decls.sh and symbols.sh: finds the symbol list and
# prints every routine name gshmem must provide, one per line.
#
# The list is openshmem-1.6-symbols.txt (TSV: symbol, chapter, deprecated),
# taken from $GSHMEM_SYMBOLS, else ../shared next to the repository, else
# /work/shared; legacy-symbols.txt adds the names in no 1.6 synopsis.

gshmem_header_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gshmem_root=$(cd "$gshmem_header_dir/../.." && pwd)

gshmem_find_symbols() {
    local f
    for f in "${GSHMEM_SYMBOLS:-}" "$gshmem_root/../shared/openshmem-1.6-symbols.txt" \
             /work/shared/openshmem-1.6-symbols.txt; do
        if [ -n "$f" ] && [ -r "$f" ]; then
            echo "$f"
            return 0
        fi
    done
    echo "SKIP: openshmem-1.6-symbols.txt not found (set GSHMEM_SYMBOLS)" >&2
    return 1
}

# gshmem_names SYMBOLS_FILE: the listed symbols, then the legacy ones.
gshmem_names() {
    cut -f1 "$1" | grep -v '^$'
    grep -v '^#' "$gshmem_header_dir/legacy-symbols.txt" | grep -v '^$'
}
