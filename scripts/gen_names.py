#!/usr/bin/env python3
"""gen_names.py - the NVSHMEM-shaped names gshmem must declare.

    python3 scripts/gen_names.py [-o tests/header/nvshmem-names.txt] [--coverage]

Expands the families below (NVSHMEM 3.x's device, host and on-stream API
with nvshmem_ -> gshmem_, nvshmemx_ -> gshmemx_) over the rows of the type
table, include/gshmem/typetable.h, which cpp expands here, and writes one
line per name, sorted:

    NAME<TAB>WHERE<TAB>FAMILY[<TAB>pending:TAG]

WHERE says from which code the name must be callable: device, host (any
host code), or cuda-host (host code of a CUDA build only: the routine takes
CUDA types).  tests/header/nvshmem-names.sh checks every line without
pending:TAG against the headers and that the committed list is what this
script writes now.

A family whose tag (or one of whose tags: bfloat16 on-stream names wait
for two branches, marked pending:f16+stream) is in PENDING is being added on
another branch: its names are listed, marked pending, and not checked.
When that branch lands, delete its tag from PENDING, run this script, and
commit the list (then scripts/gen_compat.py, and commit the header).

--coverage prints, per family, how many names NVSHMEM has (its own type
lists, written below as data) and how many of them the checked list holds.
"""
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPETABLE = os.path.join(TOP, 'include', 'gshmem', 'typetable.h')
OUT = os.path.join(TOP, 'tests', 'header', 'nvshmem-names.txt')

# Families being added by other branches of issue 18 (NVSHMEM API parity).
#   f16      bfloat16 and half rows of the typed families
#   stream   the rest of the *_on_stream family
#   rs       reducescatter (device and on-stream)
#   setup    host setup and query names, device info queries, misc.
# (Issue 31's nv38 family, the names NVSHMEM 3.6-3.8 added, has landed:
# below, "NVSHMEM 3.8".)
PENDING = set()


def table_rows(macro, column='N'):
    """Column N (TYPENAME; for GSHMEM_SIZES BITS is column T) of a
    type-table list, in table order."""
    with tempfile.NamedTemporaryFile('w', suffix='.c', delete=False) as f:
        f.write('#include "gshmem/typetable.h"\n')
        f.write(f'#define GSHMEM_NAMES_ROW(T, N) @{column}@\n')
        f.write(f'{macro}(GSHMEM_NAMES_ROW)\n')
        probe = f.name
    try:
        cpp = os.environ.get('CPP', 'cpp').split()
        out = subprocess.run(cpp + ['-P', '-I', os.path.join(TOP, 'include'), probe],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(probe)
    rows = [w.strip('@') for w in out.split() if w.startswith('@')]
    if not rows:
        sys.exit(f'gen_names.py: {macro} has no rows in {TYPETABLE}')
    return rows


def less(rows, *drop):
    return [r for r in rows if r not in drop]


def type_sets():
    """The rows device code (CUDA: no long double, no complex) generates."""
    rma = less(table_rows('GSHMEM_RMA_TYPES'), 'longdouble')
    red = less(table_rows('GSHMEM_REDUCE_MINMAX_TYPES'), 'longdouble')
    return {
        'rma': rma,
        'f16': ['bfloat16', 'half'],
        'sizes': table_rows('GSHMEM_SIZES', 'T'),
        'wait': table_rows('GSHMEM_P2P_TYPES'),
        'amo_std': table_rows('GSHMEM_AMO_STD_TYPES'),
        'amo_ext': table_rows('GSHMEM_AMO_EXT_TYPES'),
        'amo_bit': table_rows('GSHMEM_AMO_BIT_TYPES'),
        'red_bit': table_rows('GSHMEM_REDUCE_BIT_TYPES'),
        'red': red,
    }


# NVSHMEM's own type lists (nvshmem_common.cuh, nvshmem_api.h), for the
# coverage count only.
NV_RMA = ('bfloat16 half float double char short schar int long longlong uchar ushort uint '
          'ulong ulonglong int8 int16 int32 int64 uint8 uint16 uint32 uint64 size ptrdiff').split()
NV_RED_BIT = ('uchar ushort uint ulong ulonglong int8 int16 int32 int64 uint8 uint16 uint32 '
              'uint64 size').split()
NV_SETS = {
    'rma': NV_RMA,
    'f16': [],  # inside NV_RMA / NV_RED
    'sizes': '8 16 32 64 128'.split(),
    'wait': ('short int long longlong ushort uint ulong ulonglong int32 int64 uint32 uint64 '
             'size ptrdiff').split(),
    'amo_std': 'int long longlong uint ulong ulonglong int32 int64 uint32 uint64 size ptrdiff'.split(),
    'amo_ext': ('float double int long longlong uint ulong ulonglong int32 int64 uint32 uint64 '
                'size ptrdiff').split(),
    'amo_bit': 'uint ulong ulonglong int32 int64 uint32 uint64'.split(),
    'red_bit': NV_RED_BIT,
    'red': NV_RED_BIT + 'char schar short int long longlong bfloat16 half float double'.split(),
}

THREAD = ('thread',)
GROUPS = ('thread', 'warp', 'block')
OPS_BIT = ('and', 'or', 'xor')
OPS_MINMAX = ('min', 'max')
OPS_ARITH = ('sum', 'prod')
OPS_ALL = OPS_BIT + OPS_MINMAX + OPS_ARITH

# (family, template, where, types, scopes, ops, pending tag)
#   template: {p} gshmem for the thread form, gshmemx for warp/block;
#   {T} type row, {S} size in bits, {O} reduction op, {g} '', '_warp', '_block'.
#   types: a key of type_sets(), or None for an untyped name.
FAMILIES = []


def fam(family, templates, where, types=None, scopes=THREAD, ops=(None,), pending=None):
    for t in templates.split():
        FAMILIES.append((family, t, where, types, scopes, ops, pending))


def typed_rma(types, pending=None):
    fam('rma-p-g', '{p}_{T}_p {p}_{T}_g', 'device', types, pending=pending)
    fam('rma', '{p}_{T}_put{g} {p}_{T}_get{g} {p}_{T}_put_nbi{g} {p}_{T}_get_nbi{g} '
        '{p}_{T}_iput{g} {p}_{T}_iget{g}', 'device', types, GROUPS, pending=pending)
    fam('signal', '{p}_{T}_put_signal{g} {p}_{T}_put_signal_nbi{g}', 'device', types, GROUPS,
        pending=pending)
    fam('coll', '{p}_{T}_broadcast{g} {p}_{T}_fcollect{g} {p}_{T}_alltoall{g}', 'device', types,
        GROUPS, pending=pending)


def on_stream(types, pending):
    fam('stream-rma', 'gshmemx_{T}_p_on_stream gshmemx_{T}_g_on_stream '
        'gshmemx_{T}_put_on_stream gshmemx_{T}_get_on_stream '
        'gshmemx_{T}_put_nbi_on_stream gshmemx_{T}_get_nbi_on_stream '
        'gshmemx_{T}_iput_on_stream gshmemx_{T}_iget_on_stream '
        'gshmemx_{T}_put_signal_on_stream gshmemx_{T}_put_signal_nbi_on_stream', 'host', types,
        pending=pending)
    fam('stream-coll', 'gshmemx_{T}_broadcast_on_stream gshmemx_{T}_fcollect_on_stream '
        'gshmemx_{T}_alltoall_on_stream', 'host', types, pending=pending)


# Device RMA, signals and collectives with data: every RMA row, then the
# 16-bit floats.
typed_rma('rma')
typed_rma('f16', pending='f16')
fam('rma', '{p}_put{S}{g} {p}_get{S}{g} {p}_put{S}_nbi{g} {p}_get{S}_nbi{g} '
    '{p}_iput{S}{g} {p}_iget{S}{g}', 'device', 'sizes', GROUPS)
fam('rma', '{p}_putmem{g} {p}_getmem{g} {p}_putmem_nbi{g} {p}_getmem_nbi{g}', 'device',
    scopes=GROUPS)
fam('signal', '{p}_put{S}_signal{g} {p}_put{S}_signal_nbi{g}', 'device', 'sizes', GROUPS)
fam('signal', '{p}_putmem_signal{g} {p}_putmem_signal_nbi{g}', 'device', scopes=GROUPS)
fam('signal', 'gshmemx_signal_op gshmem_signal_fetch gshmem_signal_wait_until', 'device')

# Atomics (thread only, as in NVSHMEM).
fam('amo', '{p}_{T}_atomic_inc {p}_{T}_atomic_fetch_inc {p}_{T}_atomic_add '
    '{p}_{T}_atomic_fetch_add {p}_{T}_atomic_compare_swap', 'device', 'amo_std')
fam('amo', '{p}_{T}_atomic_fetch {p}_{T}_atomic_set {p}_{T}_atomic_swap', 'device', 'amo_ext')
fam('amo', '{p}_{T}_atomic_and {p}_{T}_atomic_or {p}_{T}_atomic_xor {p}_{T}_atomic_fetch_and '
    '{p}_{T}_atomic_fetch_or {p}_{T}_atomic_fetch_xor', 'device', 'amo_bit')

# Point-to-point synchronization.
fam('wait', '{p}_{T}_wait_until {p}_{T}_wait_until_all {p}_{T}_wait_until_any '
    '{p}_{T}_wait_until_some {p}_{T}_wait_until_all_vector {p}_{T}_wait_until_any_vector '
    '{p}_{T}_wait_until_some_vector {p}_{T}_test {p}_{T}_test_all {p}_{T}_test_any '
    '{p}_{T}_test_some {p}_{T}_test_all_vector {p}_{T}_test_any_vector '
    '{p}_{T}_test_some_vector', 'device', 'wait')

# Ordering, queries, teams.
fam('order', 'gshmem_quiet gshmem_fence', 'device')
fam('query', 'gshmem_my_pe gshmem_n_pes gshmem_ptr gshmem_team_my_pe gshmem_team_n_pes '
    'gshmem_team_translate_pe', 'device')
fam('query', 'gshmem_my_pe gshmem_n_pes gshmem_ptr', 'host')
fam('query', 'gshmem_info_get_version gshmem_info_get_name gshmem_global_exit', 'device')
fam('query', 'gshmem_team_my_pe gshmem_team_n_pes gshmem_team_translate_pe', 'host')
fam('query', 'gshmemx_mc_ptr', 'device')
fam('query', 'gshmemx_mc_ptr', 'host')

# Device collectives.
fam('coll', '{p}_barrier{g} {p}_barrier_all{g} {p}_team_sync{g} {p}_sync_all{g}', 'device',
    scopes=GROUPS)
fam('coll', '{p}_broadcastmem{g} {p}_fcollectmem{g} {p}_alltoallmem{g}', 'device',
    scopes=GROUPS)
fam('coll', 'gshmemx_barrier_warpgroup gshmemx_double2_maxloc_reduce_block', 'device')
fam('reduce', '{p}_{T}_{O}_reduce{g}', 'device', 'red_bit', GROUPS, OPS_BIT)
fam('reduce', '{p}_{T}_{O}_reduce{g}', 'device', 'red', GROUPS, OPS_MINMAX + OPS_ARITH)
fam('reduce', '{p}_{T}_{O}_reduce{g}', 'device', 'f16', GROUPS, OPS_MINMAX + OPS_ARITH,
    pending='f16')
fam('reducescatter', '{p}_{T}_{O}_reducescatter{g}', 'device', 'red_bit', GROUPS, OPS_BIT,
    pending='rs')
fam('reducescatter', '{p}_{T}_{O}_reducescatter{g}', 'device', 'red', GROUPS,
    OPS_MINMAX + OPS_ARITH, pending='rs')
fam('reducescatter', '{p}_{T}_{O}_reducescatter{g}', 'device', 'f16', GROUPS,
    OPS_MINMAX + OPS_ARITH, pending=('rs', 'f16'))

# Host code calls the thread forms of RMA too (NVSHMEM's host-callable
# put, get, their _nbi, iput, iget, p and g, of every type, bfloat16 and
# half included): in a CUDA build nvcc's host pass gives them the host API's
# routines (gsd/rma.h), on host lanes host code runs the same inline code.
def host_rma(types, pending=None):
    fam('rma-p-g', 'gshmem_{T}_p gshmem_{T}_g', 'host', types, pending=pending)
    fam('rma', 'gshmem_{T}_put gshmem_{T}_get gshmem_{T}_put_nbi gshmem_{T}_get_nbi '
        'gshmem_{T}_iput gshmem_{T}_iget', 'host', types, pending=pending)


host_rma('rma')
host_rma('f16')
fam('rma', 'gshmem_put{S} gshmem_get{S} gshmem_put{S}_nbi gshmem_get{S}_nbi gshmem_iput{S} '
    'gshmem_iget{S}', 'host', 'sizes')
fam('rma', 'gshmem_putmem gshmem_getmem gshmem_putmem_nbi gshmem_getmem_nbi', 'host')

# Host code calls the thread forms of the team collectives too (NVSHMEM's
# are __host__ __device__): in a CUDA build nvcc's host pass queues their
# _on_stream routine and waits for it (gsd/coll.h), on host lanes host code
# runs the same inline code.
host_rma_coll = 'gshmem_{T}_broadcast gshmem_{T}_fcollect gshmem_{T}_alltoall'
fam('coll', host_rma_coll, 'host', 'rma')
fam('coll', host_rma_coll, 'host', 'f16')
fam('coll', 'gshmem_barrier gshmem_team_sync gshmem_broadcastmem gshmem_fcollectmem '
    'gshmem_alltoallmem', 'host')
for kind in ('reduce', 'reducescatter'):
    fam(kind, 'gshmem_{T}_{O}_' + kind, 'host', 'red_bit', ops=OPS_BIT)
    fam(kind, 'gshmem_{T}_{O}_' + kind, 'host', 'red', ops=OPS_MINMAX + OPS_ARITH)
    fam(kind, 'gshmem_{T}_{O}_' + kind, 'host', 'f16', ops=OPS_MINMAX + OPS_ARITH)

# Host setup.
fam('setup', 'gshmem_malloc gshmem_calloc gshmem_align gshmem_free gshmemx_init_attr '
    'gshmemx_get_uniqueid gshmemx_set_attr_uniqueid_args', 'host')
fam('setup', 'gshmemx_collective_launch gshmemx_collective_launch_query_gridsize', 'cuda-host')
# gshmemx_buffer_register_symmetric takes MAP_SHARED file-backed memory only
# (a memfd): node peers cannot reach arbitrary private memory here.
fam('setup', 'gshmemx_buffer_register gshmemx_buffer_unregister gshmemx_buffer_unregister_all '
    'gshmemx_buffer_register_symmetric gshmemx_buffer_unregister_symmetric '
    'gshmemx_init_status gshmemx_team_init', 'host')
fam('setup', 'gshmemx_cumodule_init gshmemx_cumodule_finalize gshmemx_culibrary_init '
    'gshmemx_culibrary_finalize', 'cuda-host')

# Stream-ordered host API.
fam('stream', 'gshmemx_putmem_on_stream gshmemx_getmem_on_stream gshmemx_signal_op_on_stream '
    'gshmemx_quiet_on_stream gshmemx_barrier_all_on_stream gshmemx_sync_all_on_stream '
    'gshmemx_signal_wait_until_on_stream', 'host')
fam('stream', 'gshmemx_{T}_wait_until_on_stream', 'host', 'wait')
on_stream('rma', 'stream')
on_stream('f16', ('f16', 'stream'))
fam('stream-rma', 'gshmemx_put{S}_on_stream gshmemx_get{S}_on_stream '
    'gshmemx_put{S}_nbi_on_stream gshmemx_get{S}_nbi_on_stream gshmemx_iput{S}_on_stream '
    'gshmemx_iget{S}_on_stream gshmemx_put{S}_signal_on_stream '
    'gshmemx_put{S}_signal_nbi_on_stream', 'host', 'sizes', pending='stream')
fam('stream-rma', 'gshmemx_putmem_nbi_on_stream gshmemx_getmem_nbi_on_stream '
    'gshmemx_putmem_signal_on_stream gshmemx_putmem_signal_nbi_on_stream', 'host',
    pending='stream')
fam('stream', 'gshmemx_{T}_wait_until_all_on_stream gshmemx_{T}_wait_until_all_vector_on_stream',
    'host', 'wait', pending='stream')
fam('stream-coll', 'gshmemx_barrier_on_stream gshmemx_team_sync_on_stream '
    'gshmemx_broadcastmem_on_stream gshmemx_fcollectmem_on_stream gshmemx_alltoallmem_on_stream',
    'host', pending='stream')
fam('stream-coll', 'gshmemx_{T}_{O}_reduce_on_stream', 'host', 'red_bit', ops=OPS_BIT,
    pending='stream')
fam('stream-coll', 'gshmemx_{T}_{O}_reduce_on_stream', 'host', 'red',
    ops=OPS_MINMAX + OPS_ARITH, pending='stream')
fam('stream-coll', 'gshmemx_{T}_{O}_reduce_on_stream', 'host', 'f16',
    ops=OPS_MINMAX + OPS_ARITH, pending=('f16', 'stream'))
fam('reducescatter', 'gshmemx_{T}_{O}_reducescatter_on_stream', 'host', 'red_bit', ops=OPS_BIT,
    pending='rs')
fam('reducescatter', 'gshmemx_{T}_{O}_reducescatter_on_stream', 'host', 'red',
    ops=OPS_MINMAX + OPS_ARITH, pending='rs')
fam('reducescatter', 'gshmemx_{T}_{O}_reducescatter_on_stream', 'host', 'f16',
    ops=OPS_MINMAX + OPS_ARITH, pending=('rs', 'f16'))

# NVSHMEM 3.8: what its headers (nvidia-nvshmem-cu13 3.8.0) declare beyond
# the families above, outside the tile, queue-pair and multicast APIs
# (scripts/nvshmem_header_names.py finds them).  NVSHMEM declares the
# host+device ones __host__ __device__: each is listed for both.  Where
# each is: the floating-point atomics (gsd/amo_float.h), flush (gsd/order.h),
# the counted signal's reset (gsd/signal.h), the teams (host/team_nv.c),
# shared memory (gsd/setup.h), host-library init (host/hostlib.c), the
# symmetric registration's hint (host/buffer.c), the launch with CUDA
# attributes (device/launch.cu), the RMA regions (gsd/region.h).
NV38_HD = ('gshmem_half_atomic_fetch gshmem_half_atomic_set gshmem_half_atomic_swap '
           'gshmemx_ask_smem gshmemx_float_atomic_add gshmemx_float_atomic_fetch_add '
           'gshmemx_double_atomic_add gshmemx_double_atomic_fetch_add '
           'gshmemx_half_atomic_add gshmemx_half_atomic_fetch_add gshmemx_flush '
           'gshmemx_signal_counted_reset gshmemx_region_is_active')
fam('nv38', NV38_HD, 'device')
fam('nv38', NV38_HD, 'host')
fam('nv38', 'gshmemx_flush_warp gshmemx_flush_block gshmemx_give_smem gshmemx_release_smem '
    'gshmemx_region_start_block gshmemx_region_stop_block', 'device')
fam('nv38', 'gshmem_team_destroy gshmem_team_get_config gshmem_team_split_2d '
    'gshmem_team_split_strided gshmemx_flush_on_stream '
    'gshmemx_buffer_register_symmetric_at_preferred_address gshmemx_hostlib_finalize '
    'gshmemx_hostlib_init_attr gshmemx_set_attr_mpi_comm_args gshmemx_region_start '
    'gshmemx_region_stop', 'host')
fam('nv38', 'gshmemx_status_string gshmemx_team_get_uniqueid gshmemx_vendor_get_version_info',
    'host')
fam('nv38', 'gshmemx_vendor_get_version_info', 'device')
fam('nv38', 'gshmemx_collective_launch_attr', 'cuda-host')

SCOPE = {'thread': ('gshmem', ''), 'warp': ('gshmemx', '_warp'), 'block': ('gshmemx', '_block')}


def expand(template, rows, scopes, ops):
    for scope in scopes:
        p, g = SCOPE[scope]
        for op in ops:
            for row in rows:
                fields = {'p': p, 'g': g, 'O': op, 'T': row, 'S': row}
                yield template.format(**fields)


def pending_tag(tag):
    """'a+b' for a family that waits for branches a and b (the ones of them
    still in PENDING), None when nothing it waits for is pending."""
    tags = (tag,) if isinstance(tag, str) else tuple(tag or ())
    left = [t for t in tags if t in PENDING]
    return '+'.join(left) or None


def names(sets):
    """{(name, where): (family, pending tag or None)} over every family."""
    out = {}
    for family, template, where, types, scopes, ops, tag in FAMILIES:
        rows = sets[types] if types else [None]
        for name in expand(template, rows, scopes, ops):
            out.setdefault((name, where), (family, pending_tag(tag)))
    return out


def coverage(listed):
    """Per family: NVSHMEM's names (its own rows) and how many are checked."""
    nv_rows = dict(NV_SETS)
    per = {}
    for family, template, where, types, scopes, ops, tag in FAMILIES:
        rows = nv_rows[types] if types else [None]
        if types == 'f16':
            continue  # NVSHMEM's rows of these are in NV_RMA / 'red'
        for name in expand(template, rows, scopes, ops):
            have, total = per.get(family, (set(), set()))
            total.add((name, where))
            checked = listed.get((name, where))
            if checked and checked[1] is None:
                have.add((name, where))
            per[family] = (have, total)
    return per


def main(argv):
    out = OUT
    want_coverage = False
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == '-o' and args:
            out = args.pop(0)
        elif a == '--coverage':
            want_coverage = True
        else:
            sys.stderr.write(__doc__)
            return 2
    listed = names(type_sets())
    lines = []
    for (name, where), (family, tag) in sorted(listed.items()):
        line = f'{name}\t{where}\t{family}'
        if tag:
            line += f'\tpending:{tag}'
        lines.append(line)
    text = ''.join(f'{line}\n' for line in lines)
    if out == '-':
        sys.stdout.write(text)
    else:
        with open(out, 'w', encoding='utf-8') as f:
            f.write(text)
    pending = sum(1 for _, tag in listed.values() if tag)
    sys.stderr.write(f'gen_names.py: {len(listed)} names, {len(listed) - pending} checked, '
                     f'{pending} pending ({", ".join(sorted(PENDING)) or "none"})\n')
    if want_coverage:
        all_have = all_total = 0
        for family, (have, total) in sorted(coverage(listed).items()):
            sys.stderr.write(f'  {family:14} NVSHMEM {len(total):5}  checked here {len(have):5}\n')
            all_have += len(have)
            all_total += len(total)
        sys.stderr.write(f'  {"all":14} NVSHMEM {all_total:5}  checked here {all_have:5}\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
