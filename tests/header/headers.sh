#!/usr/bin/env bash
# headers.sh - each public header compiles on its own, twice in a row, as
# C99, C11 and C++11 with -Wall -Wextra -Werror -pedantic; and the
# constants have their fixed values (constants.c).  Exit status 0 when all
# pass.  gshmem.h includes the device API (device/gshmem_device.h, installed
# beside it), hence the second include directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
include=$here/../../include
inc="-I$include -I$here/../../device"
warn="-Wall -Wextra -Werror -pedantic"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# check LABEL COMMAND...: run a compile, report, count.
check() {
    local label=$1
    shift
    if "$@" > "$work/out" 2>&1; then
        passed=$((passed + 1))
    else
        echo "FAIL $label"
        head -20 "$work/out"
        failed=$((failed + 1))
    fi
}

headers="shmem.h pshmem.h shmemx.h gshmem.h gshmem_device.h mpp/shmem.h mpp/shmemx.h
         gshmem/cdefs.h gshmem/constants.h gshmem/types.h gshmem/shapes.h
         gshmem/typetable.h gshmem/float16.h gshmem/compat/nvshmem.h gshmem_kv.h"
# The typedef keeps -pedantic C from rejecting an empty translation unit.
for h in $headers; do
    printf '#include <%s>\n#include <%s>\ntypedef int not_empty;\n' "$h" "$h" > "$work/t.c"
    cp "$work/t.c" "$work/t.cpp"
    check "$h as C99" gcc -std=c99 $warn $inc -fsyntax-only "$work/t.c"
    check "$h as C11" gcc -std=c11 $warn $inc -fsyntax-only "$work/t.c"
    check "$h as C++11" g++ -std=c++11 $warn $inc -fsyntax-only "$work/t.cpp"
done

cp "$here/constants.c" "$work/constants.cpp"
check "constants.c as C11" gcc -std=c11 $warn $inc -fsyntax-only "$here/constants.c"
check "constants.c as C++11" g++ -std=c++11 $warn $inc -fsyntax-only "$work/constants.cpp"

echo "headers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
