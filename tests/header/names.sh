# names.sh - sourced by decls.sh and symbols.sh: finds the symbol list and
# prints every routine name gshmem must provide, one per line.
#
# The list is openshmem-1.6-symbols.txt beside this file (TSV: symbol,
# chapter, deprecated; lines starting with # are comments), or the file
# $GSHMEM_SYMBOLS names; legacy-symbols.txt adds the names in no 1.6
# synopsis.

gshmem_header_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gshmem_root=$(cd "$gshmem_header_dir/../.." && pwd)

gshmem_find_symbols() {
    local f=${GSHMEM_SYMBOLS:-$gshmem_header_dir/openshmem-1.6-symbols.txt}
    if [ -r "$f" ]; then
        echo "$f"
        return 0
    fi
    echo "$(basename "$0"): cannot read the symbol list $f" >&2
    return 1
}

# gshmem_names SYMBOLS_FILE: the listed symbols, then the legacy ones.
gshmem_names() {
    grep -v '^#' "$1" | cut -f1 | grep -v '^$'
    grep -v '^#' "$gshmem_header_dir/legacy-symbols.txt" | grep -v '^$'
}
