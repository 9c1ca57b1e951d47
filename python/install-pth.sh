#!/bin/sh
# python/install-pth.sh install|uninstall DIR [PYTHON...] - make `import gshmem`
# work for each interpreter (default: the python3 on PATH and Debian's
# /usr/bin/python3) by a gshmem.pth naming DIR (where `make install` put the
# package) in a site folder that interpreter reads: the first writable one
# of site.getsitepackages() (as root: pyenv's site-packages, Debian's
# /usr/local/lib/python3.X/dist-packages), else the user site
# (~/.local/lib/python3.X/site-packages, shared by interpreters of one
# version).  An interpreter that already finds DIR is left alone.  uninstall
# removes the gshmem.pth files that name DIR.  One line for each file
# written, kept or removed, and for each interpreter left without one.
#
# A gshmem.pth is machine-wide (or user-wide): every `import gshmem` goes
# where it points.  So install writes one only when asked, by
# GSHMEM_PYTHON_PTH (make install passes configure's --with-python-pth):
#   auto  (default) only for a default prefix, GSHMEM_PTH_PREFIX being
#         /usr/local or $HOME/.local (scripts/build.sh's choices); a scratch
#         or sanitizer prefix leaves the machine's `import gshmem` alone
#   yes   for any prefix
#   no    never
# and never silently replaces a gshmem.pth that names another install that
# still exists: auto keeps it (and says so), yes replaces it (and says
# what it named).  One that names a folder gone since is replaced.
# GSHMEM_PTH_SITE=FOLDER puts (or looks for) gshmem.pth in FOLDER instead of
# the interpreters' site folders (tests/python/pth.sh).
set -u
what=${1:?usage: install-pth.sh install|uninstall DIR [PYTHON...]}
dir=${2:?usage: install-pth.sh install|uninstall DIR [PYTHON...]}
shift 2
when=${GSHMEM_PYTHON_PTH:-auto}
prefix=${GSHMEM_PTH_PREFIX:-}
case $when in
auto | yes | no) ;;
*)
    echo "gshmem: GSHMEM_PYTHON_PTH=$when: not auto, yes or no" >&2
    exit 1
    ;;
esac
if [ "$what" = install ]; then
    if [ "$when" = no ]; then
        echo "gshmem: no gshmem.pth written (GSHMEM_PYTHON_PTH=no): set PYTHONPATH=$dir to import gshmem from this install"
        exit 0
    fi
    if [ "$when" = auto ]; then
        case $prefix in
        /usr/local | /usr/local/ | "${HOME:-/nonexistent}/.local" | "${HOME:-/nonexistent}/.local/") ;;
        *)
            echo "gshmem: no gshmem.pth written: prefix ${prefix:-(unknown)} is not a default one (/usr/local, \$HOME/.local), and a gshmem.pth would make every python3 import this install; set PYTHONPATH=$dir, or GSHMEM_PYTHON_PTH=yes at make install (configure --with-python-pth=yes)"
            exit 0
            ;;
        esac
    fi
fi
[ $# -gt 0 ] || set -- python3 /usr/bin/python3
seen=""
for py in "$@"; do
    command -v "$py" >/dev/null 2>&1 || continue
    real=$("$py" -c 'import sys; print(sys.executable)' 2>/dev/null) || continue
    case " $seen " in *" $real "*) continue ;; esac
    seen="$seen $real"
    GSHMEM_PYTHON_PTH=$when "$py" - "$what" "$dir" <<'PY'
import os, site, sys
what, d = sys.argv[1], sys.argv[2]
when = os.environ["GSHMEM_PYTHON_PTH"]
only = os.environ.get("GSHMEM_PTH_SITE")
if only:
    dirs, user = [only], None
else:
    dirs = list(site.getsitepackages()) if hasattr(site, "getsitepackages") else []
    user = site.getusersitepackages() if site.ENABLE_USER_SITE else None
if what == "uninstall":
    for s in dirs + ([user] if user else []):
        p = os.path.join(s, "gshmem.pth")
        try:
            if open(p).read().strip() == d:
                os.remove(p)
                print("gshmem: removed %s" % p)
        except OSError:
            pass
    sys.exit(0)
if d in sys.path and not only:
    sys.exit(0)


def named(p):
    """The folder an existing gshmem.pth names, or None."""
    try:
        with open(p) as f:
            return f.readline().strip() or None
    except OSError:
        return None


for s in dirs + ([user] if user else []):
    if not os.path.isdir(s):
        if s != user:
            continue
        try:
            os.makedirs(s)
        except OSError:
            continue
    if not os.access(s, os.W_OK):
        continue
    p = os.path.join(s, "gshmem.pth")
    old = named(p)
    note = ""
    if old and old != d:
        if os.path.isfile(os.path.join(old, "gshmem", "__init__.py")):
            if when != "yes":
                print("gshmem: kept %s: it names another install, %s; set PYTHONPATH=%s, or "
                      "GSHMEM_PYTHON_PTH=yes at make install to replace it" % (p, old, d))
                sys.exit(0)
            note = " (replaced: it named another install, %s)" % old
        else:
            note = " (replaced: it named %s, which holds no gshmem package)" % old
    with open(p, "w") as f:
        f.write(d + "\n")
    print("gshmem: wrote %s: %s imports gshmem from %s%s" % (p, sys.executable, d, note))
    sys.exit(0)
print("gshmem: %s: no writable site folder; set PYTHONPATH=%s" % (sys.executable, d))
PY
done
exit 0
