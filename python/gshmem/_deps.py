"""Make Debian's numpy/torch importable from another CPython of the same ABI.

scripts/install-deps.sh installs python3-numpy, python3-torch and
python3-pytest into /usr/lib/python3/dist-packages, which only Debian's
/usr/bin/python3 searches.  A pyenv (or other) python3 of the same version
and ABI can load those packages too, so when numpy is not importable here and
that folder holds a numpy built for this interpreter's ABI tag, the folder is
appended to sys.path (last: this interpreter's own packages still win).
"""
import glob
import os
import sys
import sysconfig

DEBIAN_DIST = "/usr/lib/python3/dist-packages"


def _abi_matches(folder):
    soabi = sysconfig.get_config_var("SOABI") or ""
    hits = glob.glob(os.path.join(folder, "numpy", "core", "_multiarray_umath.%s.so" % soabi))
    return bool(soabi) and bool(hits)


def ensure():
    try:
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    if DEBIAN_DIST not in sys.path and _abi_matches(DEBIAN_DIST):
        sys.path.append(DEBIAN_DIST)
