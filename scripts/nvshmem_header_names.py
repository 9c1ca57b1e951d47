#!/usr/bin/env python3
"""nvshmem_header_names.py - the names NVSHMEM's own headers declare, against
tests/header/nvshmem-names.txt.

    python3 scripts/nvshmem_header_names.py INCLUDE_DIR [--all]

INCLUDE_DIR is NVSHMEM's include directory, for instance from the
nvidia-nvshmem-cu13 wheel:

    pip download --no-deps 'nvidia-nvshmem-cu13==3.8.*'
    unzip -q nvidia_nvshmem_cu13-3.8.*.whl -d /tmp/nv
    python3 scripts/nvshmem_header_names.py /tmp/nv/nvidia/nvshmem/include

It preprocesses <nvshmem.h> and <nvshmemx.h> with nvcc -x cu -E (NVCC, default
nvcc; sm_90) and reads the declarations with scripts/decl_names.py; it keeps
the public nvshmem_ / nvshmemx_ functions outside the tile, queue-pair and
multicast families, which gshmem does not provide (device/README.md).  Each
such name is looked up in the list as gshmem_ / gshmemx_, and, for NVSHMEM's
host setup routines that gshmem has as OpenSHMEM routines (nvshmem_init,
...: scripts/gen_compat.py's HOST_ONLY), as shmem_.  It prints every name the
list lacks and a count; --all prints every name with its status.  Exit 0
when the list has every name, 1 otherwise.  scripts/gen_names.py's families
are where a missing name is added (pending:TAG until it is declared).
"""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import decl_names  # noqa: E402

LIST = os.path.join(TOP, 'tests', 'header', 'nvshmem-names.txt')

# Families gshmem does not provide: tiles, queue pairs, multicast.
EXCLUDED = re.compile(r'tile|(?:^|_)qp(?:_|$)|(?:^|_)mc(?:_|$)|multimem|multicast')

# NVSHMEM's host setup routines that gshmem provides as the OpenSHMEM
# routine of the same shape (scripts/gen_compat.py, HOST_ONLY).
HOST_ONLY = {'nvshmem_init', 'nvshmem_init_thread', 'nvshmem_query_thread',
             'nvshmem_finalize', 'nvshmem_global_exit', 'nvshmem_info_get_version',
             'nvshmem_info_get_name'}


def header_names(include):
    nvcc = os.environ.get('NVCC', 'nvcc').split()
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, 'probe.cu')
        with open(probe, 'w', encoding='utf-8') as f:
            f.write('#include <nvshmem.h>\n#include <nvshmemx.h>\n')
        text = subprocess.run(nvcc + ['-x', 'cu', '-arch=sm_90', '-E', '-I', include, probe],
                              check=True, capture_output=True, text=True).stdout
    found = decl_names.scan(text, 'nvshmem')
    return sorted(n for n in found
                  if n.startswith(('nvshmem_', 'nvshmemx_')) and not EXCLUDED.search(n))


def main(argv):
    args = argv[1:]
    show_all = '--all' in args
    args = [a for a in args if a != '--all']
    if len(args) != 1 or not os.path.isdir(args[0]):
        sys.stderr.write(__doc__)
        return 2
    listed = set()
    with open(LIST, encoding='utf-8') as f:
        for line in f:
            listed.add(line.split('\t', 1)[0])
    missing = 0
    names = header_names(args[0])
    for name in names:
        g = 'g' + name[2:]
        have = g in listed or (name in HOST_ONLY)
        if not have:
            missing += 1
        if show_all or not have:
            print(f'{name}\t{"listed" if have else "missing"}')
    print(f'nvshmem_header_names: {len(names)} names, {missing} not in '
          f'tests/header/nvshmem-names.txt', file=sys.stderr)
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
