/*
 * libs/kv/kv_layout.c - layouts.  The engine's directory lies on the
 * symmetric heap: a vote word, then one slot per layout id where this PE
 * publishes its layout of that id (shape, hash, each region's offset from
 * the directory).  Register and deregister are collective: each PE checks
 * its own layout and votes; after a barrier every PE reads every vote, so
 * a layout refused on one PE fails the call on all of them (no PE is left
 * waiting).  Once all agree, each PE reads its peers' slots once; from
 * then on a transfer needs no exchange.
 *
 * A region's offset from the directory names it on every PE only if it
 * lies on the heap, as the directory does; other symmetric memory (static
 * data, whose base differs between processes; buffers registered as
 * symmetric) is elsewhere.  So register checks each translation: every PE
 * writes a random probe over the first bytes of each of its regions (the
 * bytes are saved), each peer reads them through the translated address,
 * and after the last barrier the bytes are put back.  A region whose probe
 * does not come back makes that peer's layout unreachable (transfers to it
 * are refused), never a write to the wrong place.
 */
#include "kv_cuda.h"
#include "kv_impl.h"
#include "kv_io.h" /* the storage tier's engines, told of a drop */

#include <gshmem.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KV_DIR_HEAD 64 /* the vote word, padded */

typedef struct kv_span {
    char *lo, *hi;
} kv_span_t;

static size_t rec_bytes(void)
{
    return (sizeof(kv_dir_rec_t) + 63) & ~(size_t)63;
}

int kv_dir_create(gshmem_kv_t *kv)
{
    kv->dir_slot = rec_bytes() + (size_t)kv->cfg.max_regions * sizeof(int64_t);
    kv->dir = (char *)shmem_calloc(1, KV_DIR_HEAD + (size_t)kv->cfg.max_layouts * kv->dir_slot);
    if (kv->dir == NULL)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, "gshmem_kv_create",
                       "no room on the symmetric heap for the directory (%zu bytes; "
                       "SHMEM_SYMMETRIC_SIZE)",
                       KV_DIR_HEAD + (size_t)kv->cfg.max_layouts * kv->dir_slot);
    /* The device heap's anchor: a layout there is named by its offset from
     * this (the device heap's base differs from the host heap's, and
     * between processes).  On host lanes it is the host heap's. */
    kv->ddir = (char *)gshmem_malloc(KV_DIR_HEAD);
    if (kv->ddir == NULL) {
        shmem_free(kv->dir);
        kv->dir = NULL;
        return kv_fail(GSHMEM_KV_ERR_NOMEM, "gshmem_kv_create",
                       "no room on the device heap for the engine's anchor (%d bytes; "
                       "GSHMEM_DEVICE_HEAP_SIZE)",
                       KV_DIR_HEAD);
    }
    return 0;
}

void kv_dir_destroy(gshmem_kv_t *kv)
{
    gshmem_free(kv->ddir);
    shmem_free(kv->dir);
    kv->dir = kv->ddir = NULL;
}

kv_dir_rec_t *kv_dir_rec(gshmem_kv_t *kv, int id)
{
    return (kv_dir_rec_t *)(kv->dir + KV_DIR_HEAD + (size_t)id * kv->dir_slot);
}

static int64_t *dir_offsets(gshmem_kv_t *kv, int id)
{
    return (int64_t *)((char *)kv_dir_rec(kv, id) + rec_bytes());
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t gshmem_kv_layout_hash(const gshmem_kv_layout_t *l)
{
    uint64_t h = 0xcbf29ce484222325ull;

    if (l == NULL)
        return 0;
    h = fnv(h, 0x6b76310000000000ull); /* "kv1": the hash's own version */
    h = fnv(h, (uint64_t)l->n_layers);
    h = fnv(h, (uint64_t)l->regions_per_layer);
    return fnv(h, (uint64_t)l->block_bytes);
}

/* The bytes a region spans: n_blocks - 1 strides and one block. */
static size_t region_span(int64_t n_blocks, size_t stride, size_t bytes)
{
    return (size_t)(n_blocks - 1) * stride + bytes;
}

static int check_layout(gshmem_kv_t *kv, const gshmem_kv_layout_t *l, const char *fn)
{
    size_t stride;
    int n;

    if (l == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "layout is NULL");
    if (l->n_layers < 1)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "n_layers %d is not at least 1", l->n_layers);
    if (l->regions_per_layer < 1 || l->regions_per_layer > KV_MAX_RPL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "regions_per_layer %d is not 1 to %d",
                       l->regions_per_layer, KV_MAX_RPL);
    if (l->n_blocks < 1)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "n_blocks %lld is not at least 1",
                       (long long)l->n_blocks);
    if (l->block_bytes < 1)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "block_bytes is 0");
    stride = l->block_stride ? l->block_stride : l->block_bytes;
    if (stride < l->block_bytes)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "block_stride %zu is less than block_bytes %zu",
                       stride, l->block_bytes);
    if ((uint64_t)(l->n_blocks - 1) > (SIZE_MAX - l->block_bytes) / stride)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "%lld blocks of stride %zu do not fit in the address space",
                       (long long)l->n_blocks, stride);
    if ((long long)l->n_layers * l->regions_per_layer > kv->cfg.max_regions)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "%d layers x %d regions is more than the engine's max_regions %d",
                       l->n_layers, l->regions_per_layer, kv->cfg.max_regions);
    if (l->region_base == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "region_base is NULL");
    n = l->n_layers * l->regions_per_layer;
    for (int i = 0; i < n; i++) {
        if (l->region_base[i] == NULL)
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                           "region_base[%d] (layer %d, region %d) is NULL", i,
                           i / l->regions_per_layer, i % l->regions_per_layer);
        if ((uintptr_t)l->region_base[i] >
            UINTPTR_MAX - region_span(l->n_blocks, stride, l->block_bytes))
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "region_base[%d] %p: the region wraps", i,
                           l->region_base[i]);
    }
    return 0;
}

static int span_cmp(const void *a, const void *b)
{
    const kv_span_t *x = (const kv_span_t *)a, *y = (const kv_span_t *)b;

    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Registers the regions that are not symmetric with the runtime, as few
 * spans as possible (regions that overlap or touch share one). */
static int register_private(kv_layout_t *L, int me, const char *fn)
{
    size_t span = region_span(L->n_blocks, L->block_stride, L->block_bytes);
    kv_span_t *s = (kv_span_t *)malloc((size_t)L->n_regions * sizeof *s);
    int n = 0, m = 0;

    L->reg = (void **)malloc((size_t)L->n_regions * sizeof(void *));
    if (s == NULL || L->reg == NULL) {
        free(s);
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    }
    for (int i = 0; i < L->n_regions; i++) {
        char *b = L->base[i];

        if (shmem_addr_accessible(b, me) && shmem_addr_accessible(b + span - 1, me))
            continue;
        s[n].lo = b, s[n].hi = b + span, n++;
    }
    qsort(s, (size_t)n, sizeof *s, span_cmp);
    for (int i = 0; i < n; i++) {
        if (m > 0 && s[i].lo <= s[m - 1].hi) {
            if (s[i].hi > s[m - 1].hi)
                s[m - 1].hi = s[i].hi;
            continue;
        }
        s[m++] = s[i];
    }
    for (int i = 0; i < m; i++) {
        if (gshmemx_buffer_register(s[i].lo, (size_t)(s[i].hi - s[i].lo)) != 0) {
            int rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                             "cannot register [%p, %p) with the runtime (a registered buffer "
                             "overlaps it?)",
                             (void *)s[i].lo, (void *)s[i].hi);

            while (L->n_reg > 0)
                gshmemx_buffer_unregister(L->reg[--L->n_reg]);
            free(s);
            return rc;
        }
        L->reg[L->n_reg++] = s[i].lo;
    }
    free(s);
    return 0;
}

static uint64_t new_probe(int me)
{
    static uint64_t calls;
    uint64_t z = kv_now_ns() ^ ((uint64_t)getpid() << 20) ^ ((uint64_t)me << 48) ^
                 (++calls * 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; /* splitmix64's finalizer */
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A probe's bytes in or out of region memory: GPU memory (the device
 * heap) through the runtime's host RMA to this PE (a copy by the driver;
 * the CPU never touches it), host memory by memcpy. */
static void probe_copy(const kv_layout_t *L, void *dst, const void *src, int to_region, int me)
{
    if (!L->gpu)
        memcpy(dst, src, L->probe_len);
    else if (to_region)
        shmem_putmem(dst, src, L->probe_len, me);
    else
        shmem_getmem(dst, src, L->probe_len, me);
}

/* Saves the first probe_len bytes of every region, then writes the probe
 * over them (all saved first: regions may overlap). */
static int probes_set(kv_layout_t *L, size_t span, uint64_t probe, int me)
{
    L->probe_len = span < 8 ? span : 8;
    L->saved = (unsigned char *)malloc((size_t)L->n_regions * L->probe_len);
    if (L->saved == NULL)
        return -1;
    for (int i = 0; i < L->n_regions; i++)
        probe_copy(L, L->saved + (size_t)i * L->probe_len, L->base[i], 0, me);
    for (int i = 0; i < L->n_regions; i++)
        probe_copy(L, L->base[i], &probe, 1, me);
    if (L->gpu)
        shmem_quiet(); /* there before the vote's barrier, which peers read after */
    return 0;
}

static void probes_restore(kv_layout_t *L, int me)
{
    if (L->saved == NULL)
        return;
    for (int i = 0; i < L->n_regions; i++)
        probe_copy(L, L->base[i], L->saved + (size_t)i * L->probe_len, 1, me);
    if (L->gpu)
        shmem_quiet();
    free(L->saved);
    L->saved = NULL;
}

static uint64_t layout_gens; /* kv_layout_t.gen's source, every engine's */

/* This PE's side of a register: the layout prepared and published in the
 * directory's slot id, its probes written. */
static int prepare(gshmem_kv_t *kv, int id, const gshmem_kv_layout_t *l, const char *fn)
{
    kv_layout_t *L = &kv->layouts[id];
    kv_dir_rec_t *rec = kv_dir_rec(kv, id);
    int64_t *off = dir_offsets(kv, id);
    size_t span;
    int sym = 1, n_gpu = 0, rc;

    memset(L, 0, sizeof *L);
    L->hash = gshmem_kv_layout_hash(l);
    L->n_layers = l->n_layers, L->rpl = l->regions_per_layer;
    L->n_regions = l->n_layers * l->regions_per_layer;
    L->n_blocks = l->n_blocks;
    L->block_bytes = l->block_bytes;
    L->block_stride = l->block_stride ? l->block_stride : l->block_bytes;
    L->base = (char **)malloc((size_t)L->n_regions * sizeof(char *));
    L->peer = (kv_peer_t *)calloc((size_t)kv->npes, sizeof(kv_peer_t));
    if (L->base == NULL || L->peer == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
        goto err_free;
    }
    span = region_span(L->n_blocks, L->block_stride, L->block_bytes);
    L->span = span;
    L->gen = __atomic_add_fetch(&layout_gens, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < L->n_regions; i++) {
        L->base[i] = (char *)l->region_base[i];
        n_gpu += kv_cuda_is_device(L->base[i]);
        if (!shmem_addr_accessible(L->base[i], kv->me) ||
            !shmem_addr_accessible(L->base[i] + span - 1, kv->me))
            sym = 0;
    }
    if (n_gpu && n_gpu != L->n_regions) {
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                     "%d of the layout's %d regions are GPU memory and the others host memory: "
                     "a layout is all one or all the other",
                     n_gpu, L->n_regions);
        goto err_free;
    }
    /* GPU memory on the device heap (gshmem_malloc) is symmetric and named
     * from the device anchor; other GPU memory (a framework's tensors) is
     * not registered with the runtime, whose host RMA takes GPU memory on
     * the device heap only: such a layout goes to the storage tier and to
     * peers outside the job (kv_net.c), never between PEs (kv_xfer.c). */
    L->gpu = n_gpu > 0;
    if (!L->gpu && (rc = register_private(L, kv->me, fn)) != 0)
        goto err_free;
    for (int i = 0; i < L->n_regions; i++)
        off[i] = sym ? (int64_t)(L->base[i] - (L->gpu ? kv->ddir : kv->dir)) : 0;
    L->dheap = sym && L->gpu;
    rec->device = (uint64_t)L->dheap;
    rec->hash = L->hash;
    rec->n_blocks = L->n_blocks;
    rec->block_bytes = L->block_bytes, rec->block_stride = L->block_stride;
    rec->n_layers = L->n_layers, rec->regions_per_layer = L->rpl;
    rec->symmetric = (uint64_t)sym;
    rec->probe = new_probe(kv->me);
    if (sym && probes_set(L, span, rec->probe, kv->me) != 0) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
        while (L->n_reg > 0)
            gshmemx_buffer_unregister(L->reg[--L->n_reg]);
        goto err_free;
    }
    rec->state = KV_DIR_READY;
    return 0;

err_free:
    free(L->base), free(L->peer), free(L->reg);
    memset(L, 0, sizeof *L);
    return rc;
}

void kv_layout_drop(gshmem_kv_t *kv, int id)
{
    kv_layout_t *L = &kv->layouts[id];

    if (L->base == NULL)
        return;
    probes_restore(L, kv->me);
    kv_net_layout_drop(kv, id);
    /* The storage tier's engines let go of its memory (none is in flight:
     * the layout is not busy). */
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->files[i] && kv->files[i]->eng && kv->files[i]->eng->unfix)
            kv->files[i]->eng->unfix(kv->files[i], L->gen);
    while (L->n_reg > 0)
        gshmemx_buffer_unregister(L->reg[--L->n_reg]);
    for (int p = 0; p < kv->npes; p++)
        free(L->peer[p].base);
    free(L->base), free(L->peer), free(L->reg);
    memset(L, 0, sizeof *L);
    memset(kv_dir_rec(kv, id), 0, sizeof(kv_dir_rec_t));
}

/* The vote of a collective layout call: every PE publishes (id, ok), a
 * barrier, every PE reads them all.  0 when all agree; else the first PE
 * that did not, in *bad, and its vote in *bad_vote. */
static uint64_t vote_word(int id, int ok)
{
    return ((uint64_t)(uint32_t)(id + 1) << 8) | (ok ? 1u : 2u);
}

static int vote(gshmem_kv_t *kv, int id, int ok, int *bad, uint64_t *bad_vote)
{
    uint64_t *mine = (uint64_t *)kv->dir, mine_v = vote_word(id, ok);
    uint64_t *all = (uint64_t *)malloc((size_t)kv->npes * sizeof(uint64_t));

    *mine = mine_v;
    shmem_barrier_all();
    /* All the votes in one round: gets in flight together, one quiet. */
    for (int p = 0; p < kv->npes; p++)
        if (all)
            shmem_getmem_nbi(&all[p], mine, sizeof(uint64_t), p);
    shmem_quiet();
    *bad = -1;
    for (int p = 0; p < kv->npes; p++) {
        uint64_t v = all ? all[p] : shmem_uint64_atomic_fetch(mine, p);

        if (v != mine_v || !ok) {
            if (*bad < 0 || (v & 0xff) == 2)
                *bad = p, *bad_vote = v;
            if ((v & 0xff) == 2)
                break;
        }
    }
    free(all);
    return *bad >= 0 ? -1 : 0;
}

/* Reads each peer's slot id (its shape, its regions' offsets) and checks
 * each translated region against the probe the peer wrote there.  Three
 * rounds of gets in flight together, each ended by one quiet: the slots,
 * the offsets of the peers whose layout matches this PE's, the probes. */
static int fetch_peers(gshmem_kv_t *kv, int id, const char *fn)
{
    kv_layout_t *L = &kv->layouts[id];
    const int n = L->n_regions, np = kv->npes;
    kv_dir_rec_t *rec = (kv_dir_rec_t *)malloc((size_t)np * sizeof *rec);
    int64_t *off = (int64_t *)malloc((size_t)np * (size_t)n * sizeof(int64_t));
    uint64_t *seen = (uint64_t *)calloc((size_t)np * (size_t)n, sizeof(uint64_t));
    size_t *plen = (size_t *)malloc((size_t)np * sizeof(size_t));
    int rc = 0;

    if (rec == NULL || off == NULL || seen == NULL || plen == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %d peers' layouts", np);
        goto out;
    }
    for (int p = 0; p < np; p++)
        shmem_getmem_nbi(&rec[p], kv_dir_rec(kv, id), sizeof *rec, p);
    shmem_quiet();
    for (int p = 0; p < np; p++) {
        kv_peer_t *P = &L->peer[p];

        P->hash = rec[p].hash, P->n_blocks = rec[p].n_blocks;
        P->block_stride = rec[p].block_stride, P->symmetric = (int)rec[p].symmetric;
        /* Another shape: transfers are refused by hash; the addresses are
         * read only for one that matches this PE's. */
        if (!P->symmetric || rec[p].hash != L->hash ||
            rec[p].n_layers * rec[p].regions_per_layer != n)
            continue;
        P->base = (char **)malloc((size_t)n * sizeof(char *));
        if (P->base == NULL) {
            rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
            goto out;
        }
        shmem_getmem_nbi(&off[(size_t)p * n], dir_offsets(kv, id), (size_t)n * sizeof(int64_t), p);
    }
    shmem_quiet();
    for (int p = 0; p < np; p++) {
        kv_peer_t *P = &L->peer[p];

        if (P->base == NULL)
            continue;
        plen[p] = region_span(rec[p].n_blocks, rec[p].block_stride, rec[p].block_bytes);
        plen[p] = plen[p] < 8 ? plen[p] : 8;
        for (int i = 0; i < n; i++) {
            P->base[i] = (rec[p].device ? kv->ddir : kv->dir) + off[(size_t)p * n + i];
            /* Within this PE's symmetric memory, then the probe itself. */
            if (!shmem_addr_accessible(P->base[i], p) ||
                !shmem_addr_accessible(P->base[i] + plen[p] - 1, p)) {
                P->off_heap = P->off_heap ? P->off_heap : i + 1;
                continue;
            }
            shmem_getmem_nbi(&seen[(size_t)p * n + i], P->base[i], plen[p], p);
        }
    }
    shmem_quiet();
    for (int p = 0; p < np; p++) {
        kv_peer_t *P = &L->peer[p];

        for (int i = 0; P->base && i < n && !P->off_heap; i++)
            if (memcmp(&seen[(size_t)p * n + i], &rec[p].probe, plen[p]) != 0)
                P->off_heap = i + 1;
        if (P->off_heap) {
            free(P->base);
            P->base = NULL;
        }
    }
out:
    free(rec), free(off), free(seen), free(plen);
    return rc;
}

int gshmem_kv_layout_register(gshmem_kv_t *kv, const gshmem_kv_layout_t *layout, int *id)
{
    const char *fn = "gshmem_kv_layout_register";
    uint64_t bad_vote = 0;
    int rc = 0, slot = -1, bad;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    for (int i = 0; i < kv->cfg.max_layouts && slot < 0; i++)
        if (!kv->layouts[i].live)
            slot = i;
    if (id == NULL)
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "id is NULL");
    else if (slot < 0)
        rc = kv_fail(GSHMEM_KV_ERR_BUSY, fn,
                     "every one of the engine's %d layout ids is taken: deregister one first",
                     kv->cfg.max_layouts);
    else if ((rc = check_layout(kv, layout, fn)) == 0)
        rc = prepare(kv, slot, layout, fn);
    if (vote(kv, slot, rc == 0, &bad, &bad_vote) != 0) {
        if (rc == 0 && (bad_vote & 0xff) == 2)
            rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                         "PE %d refused its layout (its own line says why): no PE registers it",
                         bad);
        else if (rc == 0)
            rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                         "PE %d would register as id %d, this PE as id %d: register and "
                         "deregister in the same order on every PE",
                         bad, (int)(bad_vote >> 8) - 1, slot);
        if (slot >= 0)
            kv_layout_drop(kv, slot);
    } else {
        rc = fetch_peers(kv, slot, fn);
        if (rc == 0)
            kv->layouts[slot].live = 1, *id = slot;
        else
            kv_layout_drop(kv, slot); /* a malloc failed here only: see the line */
    }
    /* No PE rewrites its vote, its slot or its probes while another reads
     * them. */
    shmem_barrier_all();
    if (rc == 0)
        probes_restore(&kv->layouts[slot], kv->me);
    kv_leave(kv);
    return rc;
}

int gshmem_kv_layout_deregister(gshmem_kv_t *kv, int id)
{
    const char *fn = "gshmem_kv_layout_deregister";
    uint64_t bad_vote = 0;
    int rc = 0, bad;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if (id < 0 || id >= kv->cfg.max_layouts || !kv->layouts[id].live)
        rc = kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn, "layout id %d is not registered", id);
    else if (kv->layouts[id].busy)
        rc = kv_fail(GSHMEM_KV_ERR_BUSY, fn,
                     "layout %d has %d requests in progress: complete or cancel them first", id,
                     kv->layouts[id].busy);
    if (vote(kv, id, rc == 0, &bad, &bad_vote) != 0) {
        if (rc == 0)
            rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                         "PE %d refused to deregister layout %d (its own line says why): it "
                         "stays registered",
                         bad, id);
    } else {
        kv_layout_drop(kv, id);
    }
    shmem_barrier_all();
    kv_leave(kv);
    return rc;
}

int kv_check_shape(const kv_layout_t *L, const gshmem_kv_xfer_t *x, const char *fn, uint32_t *mask,
                   size_t *offset, size_t *length)
{
    if (x->n_layers < 1)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "n_layers %d is not at least 1", x->n_layers);
    if (x->layer_first < 0 || x->layer_first > L->n_layers - x->n_layers)
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn, "layers %d to %d: layout %d has layers 0 to %d",
                       x->layer_first, x->layer_first + x->n_layers - 1, x->layout,
                       L->n_layers - 1);
    *mask = x->region_mask ? x->region_mask : (1u << L->rpl) - 1;
    if (*mask >> L->rpl)
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                       "region_mask 0x%x names a region past layout %d's %d per layer",
                       x->region_mask, x->layout, L->rpl);
    if (x->offset >= L->block_bytes || x->length > L->block_bytes - x->offset)
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                       "slice offset %zu, length %zu is past the block of %zu bytes", x->offset,
                       x->length, L->block_bytes);
    if (x->n == 0)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "n is 0: no blocks to move");
    if (x->local_blocks == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "local_blocks is NULL");
    *offset = x->offset;
    *length = x->length ? x->length : L->block_bytes - x->offset;
    return 0;
}
