#!/bin/sh
# format.sh - clang-format the tracked C, C++ and CUDA sources.
#
#   sh scripts/format.sh [FILES...]          format in place (default: every
#                                            tracked *.c *.h *.cu *.cpp *.cc)
#   sh scripts/format.sh --check [FILES...]  change nothing; print each file
#                                            that is not formatted and where
#                                            it first differs; exit 1 if any
#
# --check with no FILES checks the files changed since $GSHMEM_FORMAT_BASE
# (a commit, e.g. origin/main) when that is set, else every tracked file.
# The style is .clang-format at the top (plus the ones in include/, host/,
# tests/ and tests/header/, which keep those trees' narrower columns),
# tuned for clang-format 14 (Debian 12); other versions may disagree on a
# few lines.  $CLANG_FORMAT names another binary.  Exit 77 (skip) when
# there is no clang-format.
#
# Files in EXCLUDE below are never formatted or checked.

# Formatting would damage these (paths from the top); clang-format 14
# misreads them:
#   include/gshmem/generic_c11.h  _Generic association lists ("T *: f"
#                                 becomes "T * : f", "default: g" becomes
#                                 "default : g"), and its one-line
#                                 shmem_* macros, a table kept over 100
#                                 columns on purpose, would be split
#   host/reduce_ops.h             _Generic lists, and an operator passed as
#                                 a macro parameter: "(a) op (b)" becomes
#                                 "(a)op(b)"
#   tests/pe/reduce_test.h        _Generic lists, and "/ (size) - 3" read
#                                 as a cast: "/ (size)-3"
#   src/base/env_table.h             X-macro table whose rows run past 100
#                                 columns: every backslash would move to
#                                 column 130
#   tests/header/spec_types.h     X-macro type lists packed several rows a
#                                 line: the rows are indented as a
#                                 staircase, and differently again on a
#                                 second run
#   include/gshmem/compat/nvshmem.h  written by scripts/gen_compat.py, one
#                                 #define a line (a test compares it with
#                                 the generator's output)
EXCLUDE="
include/gshmem/generic_c11.h
host/reduce_ops.h
tests/pe/reduce_test.h
src/base/env_table.h
tests/header/spec_types.h
include/gshmem/compat/nvshmem.h
"

cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "format.sh: SKIP, clang-format not installed (apt-get install clang-format)"
    exit 77
fi

here=$(pwd)
root=$(cd "$(dirname "$0")/.." && pwd -P) || exit 1
cd "$root" || exit 1

check=0
if [ "${1:-}" = "--check" ]; then
    check=1
    shift
fi

ver=$("$cf" --version 2>/dev/null | sed -n 's/.*clang-format version \([0-9][0-9]*\).*/\1/p')
if [ "$ver" != 14 ]; then
    echo "format.sh: note: $cf is version ${ver:-unknown}; the style is tuned for 14" >&2
fi

# is_source PATH: a C, C++ or CUDA file by its name.
is_source() {
    case "$1" in
    *.c | *.h | *.cu | *.cpp | *.cc) return 0 ;;
    esac
    return 1
}

# is_excluded PATH (from the top)
is_excluded() {
    for x in $EXCLUDE; do
        [ "$1" = "$x" ] && return 0
    done
    return 1
}

list=$(mktemp) || exit 1
trap 'rm -f "$list" "$list.all" "$list.bad"' EXIT
trap 'exit 130' INT TERM

if [ $# -gt 0 ]; then
    # Named files, relative to the directory format.sh was started in.
    for f in "$@"; do
        case "$f" in
        /*) abs=$f ;;
        *) abs=$here/$f ;;
        esac
        if [ ! -f "$abs" ]; then
            echo "format.sh: $f: no such file" >&2
            exit 2
        fi
        # The path from the top, without . or .. (the name EXCLUDE uses).
        dir=$(cd "$(dirname "$abs")" && pwd -P) || exit 2
        case "$dir/" in
        "$root"/*) ;;
        *)
            echo "format.sh: $f: not in this tree ($root)" >&2
            exit 2
            ;;
        esac
        rel=${dir#"$root"}/$(basename "$abs")
        rel=${rel#/}
        if ! is_source "$rel"; then
            echo "format.sh: $f: not a C, C++ or CUDA file, skipped" >&2
            continue
        fi
        if is_excluded "$rel"; then
            echo "format.sh: $f: excluded (see EXCLUDE in scripts/format.sh), skipped" >&2
            continue
        fi
        echo "$rel" >>"$list"
    done
elif [ $check -eq 1 ] && [ -n "${GSHMEM_FORMAT_BASE:-}" ]; then
    # Files added, copied, modified or renamed since the base (committed or
    # not); deleted ones are gone.
    if ! git rev-parse -q --verify "$GSHMEM_FORMAT_BASE^{commit}" >/dev/null; then
        echo "format.sh: GSHMEM_FORMAT_BASE=$GSHMEM_FORMAT_BASE is not a commit here" >&2
        exit 2
    fi
    git diff --name-only --diff-filter=ACMR "$GSHMEM_FORMAT_BASE" -- \
        '*.c' '*.h' '*.cu' '*.cpp' '*.cc' >"$list.all" || exit 2
    while read -r f; do
        [ -f "$f" ] && ! is_excluded "$f" && echo "$f"
    done <"$list.all" >"$list"
    rm -f "$list.all"
else
    git ls-files -- '*.c' '*.h' '*.cu' '*.cpp' '*.cc' >"$list.all" || exit 2
    while read -r f; do
        [ -f "$f" ] && ! is_excluded "$f" && echo "$f"
    done <"$list.all" >"$list"
    rm -f "$list.all"
fi

n=$(grep -c . "$list")
if [ "$n" -eq 0 ]; then
    echo "format.sh: no files to $( [ $check -eq 1 ] && echo check || echo format)"
    exit 0
fi

if [ $check -eq 0 ]; then
    # xargs: the file names have no blanks (git ls-files, checked above).
    xargs "$cf" -i --style=file --fallback-style=none <"$list" || exit 1
    echo "format.sh: formatted $n file(s)"
    exit 0
fi

# One clang-format run for all files; --ferror-limit=1 gives each bad file
# one "FILE:LINE:COL: error: code should be clang-formatted" line (and the
# source line and a caret under it, dropped here).
out=$(xargs "$cf" --dry-run --Werror --ferror-limit=1 --style=file \
    --fallback-style=none <"$list" 2>&1)
rc=$?
printf '%s\n' "$out" | awk -v list="$list" '
    BEGIN { while ((getline f < list) > 0) want[f] = 1 }
    / code should be clang-formatted/ {
        f = $0
        sub(/:[0-9]+:[0-9]+: .*/, "", f)
        if (f in want && !(f in seen)) {
            seen[f] = 1
            print "format.sh: " f " is not formatted"
            print "    " $0
        }
    }' >"$list.bad"
bad=$(grep -c 'is not formatted$' "$list.bad")
cat "$list.bad"
rm -f "$list.bad"
if [ "$bad" -gt 0 ]; then
    echo "format.sh: $bad of $n file(s) need formatting (sh scripts/format.sh FILE... fixes them)"
    exit 1
fi
if [ $rc -ne 0 ]; then
    # Not a formatting difference: a bad .clang-format, an unreadable file.
    printf '%s\n' "$out" >&2
    echo "format.sh: $cf failed (exit $rc)" >&2
    exit 2
fi
echo "format.sh: $n file(s) formatted"
exit 0
