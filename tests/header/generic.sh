#!/usr/bin/env bash
# generic.sh - the type-generic names select the right routines, and only
# for the types the spec allows.
#
# 1. generic.c (C11 _Generic) and overload.cpp (C++ overloads) are compiled
#    with -Wall -Wextra -Werror -pedantic, linked with stubs.cpp (a stand-in
#    library whose routines record their names) and run: each checks that
#    every call reaches the routine it names.
# 2. Calls with a type the spec does not list must not compile.
# gcc and g++ always; clang and clang++ when installed.  Exit status 0 when
# everything passes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
inc="-I$here/../../include"
warn="-Wall -Wextra -Werror -pedantic"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

c_compilers="gcc"
cxx_compilers="g++"
if command -v clang > /dev/null 2>&1 && command -v clang++ > /dev/null 2>&1; then
    c_compilers="gcc clang"
    cxx_compilers="g++ clang++"
fi

if ! g++ -std=c++11 -Wall -Werror $inc -c "$here/stubs.cpp" -o "$work/stubs.o" 2> "$work/err"; then
    cat "$work/err"
    fail "stubs.cpp does not compile"
    exit 1
fi

# run LABEL SOURCE COMPILER FLAGS...: build with the stubs, run, report.
run() {
    local label=$1 source=$2
    shift 2
    if ! "$@" $warn $inc -c "$source" -o "$work/test.o" 2> "$work/err"; then
        head -30 "$work/err"
        fail "$label: does not compile"
    elif ! g++ "$work/test.o" "$work/stubs.o" -o "$work/test" 2> "$work/err"; then
        head -30 "$work/err"
        fail "$label: does not link"
    elif "$work/test" > "$work/out"; then
        pass "$label: $(tail -1 "$work/out")"
    else
        cat "$work/out"
        fail "$label"
    fi
}

for cc in $c_compilers; do
    run "$cc -std=c11 generic.c" "$here/generic.c" $cc -std=c11
done
run "gcc -std=c2x generic.c" "$here/generic.c" gcc -std=c2x
for cxx in $cxx_compilers; do
    run "$cxx -std=c++11 overload.cpp" "$here/overload.cpp" $cxx -std=c++11
done
run "g++ -std=c++20 overload.cpp" "$here/overload.cpp" g++ -std=c++20

# Calls the spec does not allow: each line is a statement that must be
# rejected, as C11 and as C++ (declarations below are in scope).  The
# device API's bfloat16 and half (gshmem/float16.h) are no uint16_t or
# short on the host, so no OpenSHMEM generic takes them.
cat > "$work/reject.txt" << 'CALLS'
shmem_put(b, b, 1, 0);
shmem_put(ctx, b, b, 1, 0);
shmem_atomic_add(&f, 1.0f, 0);
shmem_atomic_add(ctx, &f, 1.0f, 0);
shmem_atomic_fetch(&ld, 0);
shmem_atomic_and(&ll, 1LL, 0);
shmem_atomic_fetch_xor(ctx, &s, 1, 0);
shmem_atomic_compare_swap(&d, 0.0, 1.0, 0);
shmem_fetch(&u, 0);
shmem_fadd(&d, 1.0, 0);
shmem_and_reduce(team, c, c, 1);
shmem_and_reduce(team, &ll, &ll, 1);
shmem_max_reduce(team, &zd, &zd, 1);
shmem_sum_reduce(team, b, b, 1);
shmem_wait_until(&d, SHMEM_CMP_EQ, 1.0);
shmem_test(&c[0], SHMEM_CMP_EQ, 'a');
shmem_broadcast(team, b, b, 1, 0);
shmem_p(&h, h, 0);
shmem_put(&bf, &bf, 1, 0);
shmem_sum_reduce(team, &h, &h, 1);
shmem_wait_until(&bf, SHMEM_CMP_EQ, bf);
CALLS

n=0
while IFS= read -r call; do
    n=$((n + 1))
    cat > "$work/reject$n.c" << EOF2
#include <shmem.h>
#include <gshmem/float16.h>
#include <stdbool.h>
void f_(shmem_ctx_t ctx, shmem_team_t team);
void f_(shmem_ctx_t ctx, shmem_team_t team)
{
    static bool b[2];
    static char c[2];
    static short s;
    static unsigned u;
    static long long ll;
    static float f;
    static double d;
    static long double ld;
    __extension__ static double _Complex zd;
    static gshmem_half_t h;
    static gshmem_bfloat16_t bf;
    (void)ctx; (void)team; (void)b; (void)c; (void)s; (void)u; (void)ll;
    (void)f; (void)d; (void)ld; (void)zd; (void)h; (void)bf;
    $call
}
EOF2
    cp "$work/reject$n.c" "$work/reject$n.cpp"
    for cc in "gcc -std=c11" "g++ -std=c++11"; do
        src="$work/reject$n.c"
        case $cc in g++*) src="$work/reject$n.cpp" ;; esac
        # Only this call may be the error: the file compiles without it.
        sed "s/^    $(printf '%s' "$call" | sed 's/[][\.*^$/&]/\\&/g')\$//" "$src" > "$work/base.${src##*.}"
        if ! $cc $inc -fsyntax-only "$work/base.${src##*.}" 2> "$work/err"; then
            head -5 "$work/err"
            fail "$cc: reject test $n does not compile even without the call"
        elif $cc $inc -fsyntax-only "$src" 2> /dev/null; then
            fail "$cc accepts: $call"
        else
            pass "$cc rejects: $call"
        fi
    done
done < "$work/reject.txt"

echo "generic: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
