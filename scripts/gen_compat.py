#!/usr/bin/env python3
"""gen_compat.py - write include/gshmem/compat/nvshmem.h from the headers.

    python3 scripts/gen_compat.py [--build DIR] [-o FILE]

The compatibility header lets a program written for NVSHMEM build with
gshmem: it maps each nvshmem_* / nvshmemx_* routine, constant and type that
gshmem provides onto gshmem's name.  The names come from the headers
themselves, preprocessed by the build tree's gshmemcc (DIR, default the
source tree) as a program gets them, for host lanes (cc -E) and for CUDA
(gshmemcc -x cu -E; nvcc is required, so the header is the same wherever
it is made):

  routines   every gshmem_X / gshmemx_X declared gives nvshmem_X /
             nvshmemx_X.  NVSHMEM lets host code call many routines that
             gshmem has only as device functions plus an OpenSHMEM host
             routine of the same shape (shmem_quiet, shmem_int_p, ...):
             those names are split by where the call is compiled
             (__CUDA_ARCH__ under nvcc; on host lanes, inside a lane or
             not).  The shapes are compared from the declarations, so a
             routine whose host form takes other arguments (a team handle)
             is not split: the team collectives (reduce, broadcast, barrier,
             ...) are gshmem routines callable from host code themselves,
             on NVSHMEM's team ids (gsd/coll.h), and map one to one.  NVSHMEM's host-only setup routines that gshmem
             has only as shmem_ routines (nvshmem_init, ...) map to those.
  constants  the NVSHMEM constants listed below, each to GSHMEM[X]_NAME
             when it exists, or to its OpenSHMEM twin where the meaning
             and the type are the same (comparisons, thread levels, ...).
  types      every gshmem[x]_NAME_t typedef gives nvshmem[x]_NAME_t.

tests/compat/header-current.sh checks that the committed header is what
this script writes now: rerun it after adding names to gshmem.
"""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import decl_names  # noqa: E402

OUT = os.path.join(TOP, 'include', 'gshmem', 'compat', 'nvshmem.h')

# NVSHMEM 3.x's public constants (nvshmem_constants.h, nvshmem_types.h,
# nvshmem_common.cuh, nvshmem_uniqueid.h), by name.
CONSTANTS = '''
NVSHMEM_CMP_EQ NVSHMEM_CMP_NE NVSHMEM_CMP_GT NVSHMEM_CMP_LE NVSHMEM_CMP_LT NVSHMEM_CMP_GE
NVSHMEM_SIGNAL_SET NVSHMEM_SIGNAL_ADD
NVSHMEM_THREAD_SINGLE NVSHMEM_THREAD_FUNNELED NVSHMEM_THREAD_SERIALIZED NVSHMEM_THREAD_MULTIPLE
NVSHMEM_MAJOR_VERSION NVSHMEM_MINOR_VERSION NVSHMEM_MAX_NAME_LEN NVSHMEM_VENDOR_STRING
NVSHMEM_VENDOR_MAJOR_VERSION NVSHMEM_VENDOR_MINOR_VERSION NVSHMEM_VENDOR_PATCH_VERSION
NVSHMEM_VENDOR_VERSION
NVSHMEM_TEAM_WORLD NVSHMEM_TEAM_SHARED NVSHMEM_TEAM_INVALID NVSHMEMX_TEAM_NODE
NVSHMEMX_TEAM_SAME_MYPE_NODE NVSHMEM_PE_INVALID
NVSHMEM_TEAM_CONFIG_INITIALIZER NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS
NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID NVSHMEM_TEAM_UNIQUID_INITIALIZER
NVSHMEM_STATUS_NOT_INITIALIZED NVSHMEM_STATUS_IS_BOOTSTRAPPED NVSHMEM_STATUS_IS_INITIALIZED
NVSHMEM_STATUS_LIMITED_MPG NVSHMEM_STATUS_FULL_MPG NVSHMEM_STATUS_INVALID
NVSHMEMX_INIT_THREAD_PES NVSHMEMX_INIT_WITH_MPI_COMM NVSHMEMX_INIT_WITH_SHMEM
NVSHMEMX_INIT_WITH_UNIQUEID NVSHMEMX_INIT_ATTR_INITIALIZER NVSHMEMX_UNIQUEID_INITIALIZER
NVSHMEMX_UNIQUEID_ARGS_INITIALIZER
NVSHMEMX_SUCCESS NVSHMEMX_ERROR_INVALID_VALUE NVSHMEMX_ERROR_OUT_OF_MEMORY
NVSHMEMX_ERROR_NOT_SUPPORTED NVSHMEMX_ERROR_SYMMETRY NVSHMEMX_ERROR_GPU_NOT_SELECTED
NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED NVSHMEMX_ERROR_INTERNAL NVSHMEMX_ERROR_SENTINEL
NVSHMEMI_ERROR_PRINT
NVSHMEMX_SMEM_RECOMMENDED NVSHMEMX_SMEM_MINIMUM NVSHMEMX_SMEM_BARRIERS_ONLY
NVSHMEMX_SMEM_AMOUNT_MAX
NVSHMEMX_REGION_HINT_NONE NVSHMEMX_REGION_HINT_BATCH_RMA NVSHMEMX_REGION_ATTRS_INITIALIZER
NVSHMEMX_REGION_ATTRS_RESERVED_BYTES
'''.split()

# NVSHMEM's enum tags, each to gshmem's tag when the headers declare it.
TAGS = {'nvshmemx_status': 'gshmemx_status'}

# Constants whose OpenSHMEM twin (SHMEM_NAME) has NVSHMEM's meaning and type.
# Team handles are not among them: NVSHMEM's are integers in host and
# device code, OpenSHMEM's are host pointers.
SPEC_TWINS = {
    'CMP_EQ', 'CMP_NE', 'CMP_GT', 'CMP_LE', 'CMP_LT', 'CMP_GE', 'SIGNAL_SET', 'SIGNAL_ADD',
    'THREAD_SINGLE', 'THREAD_FUNNELED', 'THREAD_SERIALIZED', 'THREAD_MULTIPLE',
    'MAJOR_VERSION', 'MINOR_VERSION', 'MAX_NAME_LEN', 'VENDOR_STRING',
}

# NVSHMEM's host-only routines that gshmem provides as OpenSHMEM routines
# of the same shape, used while gshmem has no gshmem_ routine of the name.
HOST_ONLY = ('init', 'init_thread', 'query_thread', 'finalize', 'global_exit',
             'info_get_version', 'info_get_name')

# What NVSHMEM 3.8's nvshmem.h / nvshmemx.h bring in that programs use
# without including it themselves (assert, the CUDA driver and runtime APIs,
# ...): the standard C headers its headers include, and under nvcc the CUDA
# ones (gshmemcc -x cu links -lcuda when the program calls the driver API).
INCLUDES = '''/* What NVSHMEM's headers include. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__CUDACC__)
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#if defined(__cplusplus)
#include <cooperative_groups.h>
#endif
#endif

'''

# NVSHMEM's names that are macros for another of its names.
ALIASES = {'nvshmem_sync': 'nvshmem_team_sync'}


def preprocess(build, cuda):
    cc = os.path.join(build, 'tools', 'gshmemcc')
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, 'probe.c')
        with open(probe, 'w', encoding='utf-8') as f:
            f.write('#include <gshmem.h>\n#include <gshmem_device.h>\n')
        args = [cc] + (['-x', 'cu'] if cuda else []) + ['-E', probe]
        text = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        macros = subprocess.run([cc, '-dM', '-E', probe], check=True, capture_output=True,
                                text=True).stdout
    return text, macros


# The host-callable RMA thread forms (gsd/rma.h): in a CUDA build their host
# pass is the OpenSHMEM routine on the same bytes, so they stay split as when
# they were device-only (host code of both backends reaches the twin).  The
# other host+device routines (gshmem_ptr, gshmem_my_pe, the team
# collectives, ...) give gshmem's own answer on the host and are not split.
HOST_PASS_IS_TWIN = re.compile(r'^gshmem_(?:\w+_)?(?:p|g|i?put|i?get)(?:\d+|mem)?(?:_nbi)?$')


def nv(name):
    """gshmem_x -> nvshmem_x, gshmemx_x -> nvshmemx_x."""
    return 'nv' + name[1:]


def public(names):
    return {n: v for n, v in names.items() if n.startswith(('gshmem_', 'gshmemx_'))}


def wrap_comment(text, width=78):
    lines, cur = [], '/*'
    for word in text.split():
        if len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = ' *'
        cur += ' ' + word
    lines.append(cur + ' */')
    return '\n'.join(lines) + '\n'


def main(argv):
    build = TOP
    out = OUT
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == '--build' and args:
            build = args.pop(0)
        elif a == '-o' and args:
            out = args.pop(0)
        else:
            sys.stderr.write(__doc__)
            return 2
    lanes_text, macros = preprocess(build, cuda=False)
    try:
        cuda_text, _ = preprocess(build, cuda=True)
    except (subprocess.CalledProcessError, OSError) as e:
        sys.exit(f'gen_compat.py: gshmemcc -x cu -E failed ({e}): the header is made with nvcc')

    lanes = public(decl_names.scan(lanes_text, 'gshmem', True))
    cuda = public(decl_names.scan(cuda_text, 'gshmem', True))
    host_api = decl_names.scan(lanes_text, 'shmem', True)
    lane_types = set(public(dict.fromkeys(decl_names.scan_types(lanes_text))))
    cuda_types = set(public(dict.fromkeys(decl_names.scan_types(cuda_text))))
    types = sorted(lane_types | cuda_types)
    known = set(re.findall(r'^#define (\w+)', macros, re.M))
    known |= set(re.findall(r'\b[A-Z][A-Z0-9_]*\b', lanes_text))

    plain, split, host_only = [], [], []
    for name in sorted(set(lanes) | set(cuda)):
        twin = 'shmem' + name[len('gshmem'):]
        where = cuda.get(name, lanes.get(name))[0]
        hd_twin = name in cuda and where == 'host+device' and HOST_PASS_IS_TWIN.match(name)
        if (where == 'device' or hd_twin) and twin in host_api and \
                host_api[twin][1] == cuda[name][1]:
            split.append((name, twin))
        else:
            plain.append(name)
    for routine in HOST_ONLY:
        if f'gshmem_{routine}' not in lanes and f'shmem_{routine}' in host_api:
            host_only.append((f'nvshmem_{routine}', f'shmem_{routine}'))

    consts, missing = [], []
    for const in CONSTANTS:
        x = const.startswith('NVSHMEMX_')
        base = const.split('_', 1)[1]
        tries = ['GSHMEMX_' + base, 'GSHMEM_' + base] if x else ['GSHMEM_' + base,
                                                                  'GSHMEMX_' + base]
        if base in SPEC_TWINS:
            tries.append('SHMEM_' + base)
        hit = next((t for t in tries if t in known), None)
        (consts if hit else missing).append((const, hit))

    w = []
    w.append('/*\n * gshmem/compat/nvshmem.h - NVSHMEM\'s names for what gshmem provides.\n'
             ' *\n'
             ' * Generated by scripts/gen_compat.py from the preprocessed gshmem headers;\n'
             ' * do not edit.  A program written for NVSHMEM includes this header\n'
             ' * instead of nvshmem.h and nvshmemx.h, and builds with gshmemcc (host lanes)\n'
             ' * or gshmemcc -x cu (CUDA).  Each nvshmem_X / nvshmemx_X / NVSHMEM_X / type\n'
             ' * gshmem provides is a macro or typedef for gshmem\'s name; what gshmem\n'
             ' * lacks is left undefined, so a program that uses it fails to compile\n'
             ' * with the name in the error.  The routines marked "host or device" below\n'
             ' * are function-like macros on host lanes: their address cannot be taken.\n'
             ' *\n'
             ' * Not provided (see device/README.md): NVSHMEM\'s tile API\n'
             ' * (nvshmemx::tile_*), the queue-pair API (nvshmemx_qp_*), and the\n'
             ' * NVSHMEM_VENDOR_*VERSION numbers (gshmem is not NVSHMEM; its own release\n'
             ' * is GSHMEM_VERSION_*).\n */\n')
    w.append('#ifndef GSHMEM_COMPAT_NVSHMEM_H\n#define GSHMEM_COMPAT_NVSHMEM_H\n\n')
    w.append(INCLUDES)
    w.append('#include <gshmem.h>\n#include <gshmem_device.h>\n\n')
    w.append('/* Types. */\n')
    # A type of one backend only is typedef'd there only.
    for t in types:
        only = '' if t in lane_types and t in cuda_types else \
            '!defined(__CUDACC__)' if t in lane_types else 'defined(__CUDACC__)'
        if only:
            w.append(f'#if {only}\n')
        w.append(f'typedef {t} {nv(t)};\n')
        if only:
            w.append('#endif\n')
    for name, target in sorted(TAGS.items()):
        if re.search(r'\benum\s+' + target + r'\b', lanes_text):
            w.append(f'#define {name} {target}\n')
    w.append('\n/* Constants. */\n')
    for name, g in consts:
        w.append(f'#define {name} {g}\n')
    if missing:
        w.append(wrap_comment('Not provided: ' + ', '.join(n for n, _ in missing) + '.'))
    w.append('\n/* Host setup: OpenSHMEM\'s routines of the same shape. */\n')
    for name, s in host_only:
        w.append(f'#define {name} {s}\n')
    w.append('\n/* Routines callable from host or device code: the device routine in\n'
             ' * device code (__CUDA_ARCH__; on host lanes, a kernel\'s lane), the\n'
             ' * OpenSHMEM routine of the same shape elsewhere. */\n')
    w.append('#if defined(__CUDACC__)\n#if defined(__CUDA_ARCH__)\n')
    for g, s in split:
        w.append(f'#define {nv(g)} {g}\n')
    w.append('#else\n')
    for g, s in split:
        w.append(f'#define {nv(g)} {s}\n')
    w.append('#endif\n#else\n')
    for g, s in split:
        w.append(f'#define {nv(g)}(...) (gshmemi_lane_self ? {g}(__VA_ARGS__) : {s}(__VA_ARGS__))\n')
    w.append('#endif\n\n/* Routines. */\n')
    for g in plain:
        w.append(f'#define {nv(g)} {g}\n')
    w.append('\n/* NVSHMEM\'s aliases. */\n')
    for name, target in sorted(ALIASES.items()):
        if 'g' + target[2:] in lanes:
            w.append(f'#define {name} {target}\n')
    w.append('\n#endif /* GSHMEM_COMPAT_NVSHMEM_H */\n')
    text = ''.join(w)
    if out == '-':
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, 'w', encoding='utf-8') as f:
            f.write(text)
    sys.stderr.write(f'gen_compat.py: {len(plain)} routines, {len(split)} host-or-device, '
                     f'{len(host_only)} host setup, {len(consts)} constants '
                     f'({len(missing)} not provided), {len(types)} types\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
