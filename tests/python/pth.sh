#!/bin/sh
# tests/python/pth.sh - make install's gshmem.pth (python/install-pth.sh)
# takes over `import gshmem` only when it should, in a scratch site folder
# (GSHMEM_PTH_SITE), never the machine's:
#   1. make install's hook into a scratch prefix writes no gshmem.pth (the
#      machine-wide one used to be rewritten by every install)
#   2. the default prefix writes one, and prints what it wrote
#   3. a second install at a default prefix keeps one that names another
#      install still there, and says so
#   4. GSHMEM_PYTHON_PTH=yes replaces it, naming the one it replaced
#   5. one that names a folder gone since is replaced
#   6. GSHMEM_PYTHON_PTH=no writes none; uninstall removes only its own
set -u
top=${GSHMEM_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GSHMEM_TOP_BUILDDIR:-$top}
command -v python3 >/dev/null 2>&1 || { echo "pth.sh: SKIP: no python3"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-pth.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
site=$work/site
mkdir -p "$site" "$work/a/gshmem" "$work/b/gshmem"
: >"$work/a/gshmem/__init__.py"
: >"$work/b/gshmem/__init__.py"
GSHMEM_PTH_SITE=$site
export GSHMEM_PTH_SITE
unset GSHMEM_PYTHON_PTH
fails=0
pth=$site/gshmem.pth

# check WHAT COND: one verdict line
check() {
    if eval "$2"; then
        echo "ok: $1"
    else
        echo "FAIL: $1"
        fails=$((fails + 1))
    fi
}
has() { printf '%s\n' "$out" | grep -q "$1"; }
names() { [ -f "$pth" ] && [ "$(cat "$pth")" = "$1" ]; }
inst() { out=$(sh "$top/python/install-pth.sh" "$@" python3 2>&1); printf '%s\n' "$out"; }

# 1. make install's own hook, into a scratch prefix (its _installed.py there).
scratch=$work/prefix
mkdir -p "$scratch/lib/gshmem/python/gshmem"
out=$(env -u MAKEFLAGS -u MFLAGS make -s -C "$build" install-python-hook prefix="$scratch" 2>&1)
printf '%s\n' "$out"
check "make install into a scratch prefix writes no gshmem.pth" "[ ! -e '$pth' ]"
check "and says why" "has 'no gshmem.pth written: prefix $scratch is not a default one'"
check "and still writes _installed.py" "[ -f '$scratch/lib/gshmem/python/gshmem/_installed.py' ]"

# 2. The default prefix.
GSHMEM_PTH_PREFIX=/usr/local inst install "$work/a"
check "the default prefix writes gshmem.pth naming its install" "names '$work/a'"
check "and prints what it wrote" "has 'wrote $pth: .* imports gshmem from $work/a'"

# 3. Another install at a default prefix, while the first is still there.
GSHMEM_PTH_PREFIX=/usr/local inst install "$work/b"
check "a gshmem.pth naming another existing install is kept" "names '$work/a'"
check "and that is said" "has 'kept $pth: it names another install, $work/a'"

# 4. Asked to: replaced, and the old one named.
GSHMEM_PYTHON_PTH=yes GSHMEM_PTH_PREFIX=$scratch inst install "$work/b"
check "GSHMEM_PYTHON_PTH=yes replaces it, for any prefix" "names '$work/b'"
check "naming the install it replaced" "has 'replaced: it named another install, $work/a'"

# 5. A stale one (its folder gone) is replaced at a default prefix.
rm -rf "$work/b"
GSHMEM_PTH_PREFIX=/usr/local inst install "$work/a"
check "a gshmem.pth naming a folder gone since is replaced" "names '$work/a'"

# 6. no, and uninstall.
GSHMEM_PYTHON_PTH=no GSHMEM_PTH_PREFIX=/usr/local inst install "$work/c"
check "GSHMEM_PYTHON_PTH=no writes nothing" "names '$work/a'"
inst uninstall "$work/c"
check "uninstall leaves another install's gshmem.pth" "names '$work/a'"
inst uninstall "$work/a"
check "uninstall removes its own" "[ ! -e '$pth' ]"

[ $fails -eq 0 ] || { echo "pth.sh: $fails failed"; exit 1; }
echo "pth.sh: all passed"
