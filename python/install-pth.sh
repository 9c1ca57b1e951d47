#!/bin/sh
# python/install-pth.sh install|uninstall DIR [PYTHON...] - make `import gshmem`
# work for each interpreter (default: the python3 on PATH and Debian's
# /usr/bin/python3) by a gshmem.pth naming DIR (where `make install` put the
# package) in a site folder that interpreter reads: the first writable one
# of site.getsitepackages() (as root: pyenv's site-packages, Debian's
# /usr/local/lib/python3.X/dist-packages), else the user site
# (~/.local/lib/python3.X/site-packages, shared by interpreters of one
# version).  An interpreter that already finds DIR is left alone.  uninstall
# removes the gshmem.pth files that name DIR.  One line per file written.
set -u
what=${1:?usage: install-pth.sh install|uninstall DIR [PYTHON...]}
dir=${2:?usage: install-pth.sh install|uninstall DIR [PYTHON...]}
shift 2
[ $# -gt 0 ] || set -- python3 /usr/bin/python3
seen=""
for py in "$@"; do
    command -v "$py" >/dev/null 2>&1 || continue
    real=$("$py" -c 'import sys; print(sys.executable)' 2>/dev/null) || continue
    case " $seen " in *" $real "*) continue ;; esac
    seen="$seen $real"
    "$py" - "$what" "$dir" <<'PY'
import os, site, sys
what, d = sys.argv[1], sys.argv[2]
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
if d in sys.path:
    sys.exit(0)
for s in dirs + ([user] if user else []):
    if not os.path.isdir(s):
        if s != user:
            continue
        try:
            os.makedirs(s)
        except OSError:
            continue
    if os.access(s, os.W_OK):
        with open(os.path.join(s, "gshmem.pth"), "w") as f:
            f.write(d + "\n")
        print("gshmem: %s finds the Python package through %s" %
              (sys.executable, os.path.join(s, "gshmem.pth")))
        sys.exit(0)
print("gshmem: %s: no writable site folder; set PYTHONPATH=%s" % (sys.executable, d))
PY
done
exit 0
