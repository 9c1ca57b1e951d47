#!/usr/bin/env bash
# decls.sh [SYMBOLS_FILE] - every OpenSHMEM routine is declared.
#
# Generates one C file that takes the address of each routine of
# openshmem-1.6-symbols.txt (plus legacy-symbols.txt) and of its pshmem_
# twin, and compiles it with -fsyntax-only in several languages.  An
# undeclared or mistyped name is a compile error, and the names the compiler
# rejected are printed.  Exit status 0 when every language passes.
#
# C++ is compiled with GSHMEM_NO_GENERIC: there shmem_sync and a few others
# are also overloaded, and an overload set has no single address.
set -u
. "$(dirname "$0")/names.sh"

symbols=${1:-$(gshmem_find_symbols)} || exit 1
[ -r "$symbols" ] || { echo "decls.sh: cannot read $symbols" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
    echo '#include <shmem.h>'
    echo '#include <pshmem.h>'
    echo 'typedef void (*any_fn_t)(void);'
    echo 'extern const any_fn_t routines[];'
    echo 'const any_fn_t routines[] = {'
    gshmem_names "$symbols" | while read -r name; do
        printf '    (any_fn_t)&%s, (any_fn_t)&p%s,\n' "$name" "$name"
    done
    echo '};'
} > "$work/decls.c"
cp "$work/decls.c" "$work/decls.cpp"
count=$(gshmem_names "$symbols" | wc -l)

warn="-Wall -Wextra -Werror"
inc="-I$gshmem_root/include"
passed=0
failed=0

# check LABEL COMPILER ARGS...: compile, report, count.
check() {
    local label=$1
    shift
    if "$@" $inc -fsyntax-only > "$work/out" 2>&1; then
        echo "PASS $label"
        passed=$((passed + 1))
    else
        echo "FAIL $label"
        # The undeclared names if that is the trouble, else the first errors.
        if grep -qE 'undeclared|not declared' "$work/out"; then
            grep -E 'undeclared|not declared' "$work/out" | head -50
        else
            head -20 "$work/out"
        fi
        failed=$((failed + 1))
    fi
}

check "gcc -std=c99" gcc -std=c99 $warn "$work/decls.c"
check "gcc -std=c11 -pedantic" gcc -std=c11 -pedantic $warn "$work/decls.c"
check "g++ -std=c++11 -pedantic" g++ -std=c++11 -pedantic $warn -DGSHMEM_NO_GENERIC "$work/decls.cpp"
if command -v clang > /dev/null 2>&1; then
    check "clang -std=c11 -pedantic" clang -std=c11 -pedantic $warn "$work/decls.c"
    check "clang++ -std=c++11 -pedantic" clang++ -std=c++11 -pedantic $warn -DGSHMEM_NO_GENERIC "$work/decls.cpp"
fi

echo "decls: $count routines and their pshmem_ twins; $passed passed, $failed failed"
[ "$failed" -eq 0 ]
