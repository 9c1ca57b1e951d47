/* src/net/node/node.c - the node transport (GSHMEM_TRANSPORT=node): for a
 * job whose PEs all run on one host, every peer's regions are mapped into
 * this process and each operation is a copy or an atomic on the mapping.
 *
 * It is what "the network" is where there is none: with
 * GSHMEM_DISABLE_P2P=1 no PE loads or stores a peer's memory directly, so
 * device code reaches every peer through the proxy channels, and the proxy
 * thread drains them into these ops.  That runs the ring protocol (lanes
 * pushing, quieting and fetching while a host thread drains) without UCX or
 * an RDMA device.
 *
 *   - host memory (the init regions, buffers registered as symmetric):
 *     mapped from the owner's memfd, as P2P maps it (src/base/memfd.h);
 *     put and get are memcpy, atomics are CPU atomics on the shared pages,
 *     so they are atomic with every other PE's CPU atomics on the word;
 *   - device memory (the GPU device heap): the GPU layer imports each
 *     peer's heap into this process (VMM, src/gpu/cuda/cuda_heap.c) and
 *     hands the mapping and a copy routine down (node.h); put and get are
 *     asynchronous copies that quiet waits for, atomics a one-thread
 *     kernel of this PE's GPU where that is atomic with the owner GPU's
 *     atomics (node_caps).
 *
 * A PE on another host cannot be mapped: init refuses the job with one
 * line. */
#define _GNU_SOURCE
#include "net/node/node.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/memfd.h"
#include "base/shared_map.h"
#include "net/transport.h"

typedef struct node_region {
    gst_mem_type_t mem;
    size_t size;      /* bytes every PE registered; 0: none */
    uintptr_t *peer;  /* [n_pes] where each PE's copy is mapped here; 0: not */
    size_t *peer_len; /* [n_pes] bytes mapped at peer[pe] */
    void **map;       /* [n_pes] host mappings this transport made, to unmap */
    size_t *map_len;  /* [n_pes] their lengths */
} node_region_t;

static struct {
    int up;
    int my_pe, n_pes, n_regions;
    int *pid;       /* [n_pes] */
    char *net_peer; /* [n_pes] 1: reached through this transport */
    int (*allgather)(const void *in, void *out, size_t len);
    node_region_t region[GST_MAX_REGIONS];
    const gst_node_dev_t *dev;
    /* Device copies issued, and how many of them a finished sync covered:
     * a quiet waits unless a sync that started after its own copies has
     * returned (another thread's sync still running is not enough). */
    atomic_ullong dev_issued, dev_synced;
} node;

int gst_node_active(void)
{
    return node.up;
}

void gst_node_set_dev(const gst_node_dev_t *dev)
{
    node.dev = dev;
}

static gsi_status_t region_alloc(node_region_t *reg)
{
    size_t n = (size_t)node.n_pes;

    if (reg->peer)
        return GSI_OK;
    reg->peer = calloc(n, sizeof(*reg->peer));
    reg->peer_len = calloc(n, sizeof(*reg->peer_len));
    reg->map = calloc(n, sizeof(*reg->map));
    reg->map_len = calloc(n, sizeof(*reg->map_len));
    if (!reg->peer || !reg->peer_len || !reg->map || !reg->map_len)
        return GSI_ERR_NOMEM;
    return GSI_OK;
}

/* Undo the host mappings of region r and forget its peers. */
static void region_unmap(node_region_t *reg)
{
    for (int pe = 0; reg->peer && pe < node.n_pes; pe++) {
        if (reg->map[pe])
            gsi_memfd_unmap(reg->map[pe], reg->map_len[pe]);
        reg->map[pe] = NULL;
        reg->map_len[pe] = 0;
        reg->peer[pe] = 0;
        reg->peer_len[pe] = 0;
    }
    reg->size = 0;
}

static void region_free(node_region_t *reg)
{
    region_unmap(reg);
    free(reg->peer);
    free(reg->peer_len);
    free(reg->map);
    free(reg->map_len);
    memset(reg, 0, sizeof(*reg));
}

/* Map `len` bytes at file offset `offset` of PE pe's descriptor fd. */
static gsi_status_t map_host(node_region_t *reg, int pe, int fd, uint64_t offset, size_t len)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), skip = offset % page;
    void *map;
    gsi_status_t status;

    status = gsi_memfd_map_peer_at(node.pid[pe], fd, offset - skip, len + skip, &map);
    if (status != GSI_OK)
        return status;
    reg->map[pe] = map;
    reg->map_len[pe] = len + skip;
    reg->peer[pe] = (uintptr_t)map + skip;
    reg->peer_len[pe] = len;
    return GSI_OK;
}

static void finalize(void)
{
    for (int r = 0; r < GST_MAX_REGIONS; r++)
        region_free(&node.region[r]);
    free(node.pid);
    free(node.net_peer);
    node.pid = NULL;
    node.net_peer = NULL;
    node.up = 0;
    atomic_store(&node.dev_issued, 0);
    atomic_store(&node.dev_synced, 0);
}

static gsi_status_t node_init(const gst_init_args_t *args, char *err, size_t errlen)
{
    const gst_node_dev_t *dev = node.dev; /* set from above, before or after init */
    gsi_status_t status = GSI_OK;

    memset(&node, 0, sizeof(node));
    node.dev = dev;
    node.my_pe = args->my_pe;
    node.n_pes = args->n_pes;
    node.n_regions = args->n_regions;
    node.allgather = args->allgather;
    for (int pe = 0; pe < args->n_pes; pe++)
        if (args->net_peer[pe] && !args->same_host[pe]) {
            snprintf(err, errlen,
                     "PE %d runs on another host, and the node transport reaches only PEs of "
                     "this host (use GSHMEM_TRANSPORT=auto, ucx or verbs)",
                     pe);
            return GSI_ERR_NO_TRANSPORT;
        }
    node.pid = calloc((size_t)args->n_pes, sizeof(*node.pid));
    node.net_peer = calloc((size_t)args->n_pes, 1);
    if (!node.pid || !node.net_peer) {
        snprintf(err, errlen, "out of memory for %d PEs", args->n_pes);
        finalize();
        return GSI_ERR_NOMEM;
    }
    memcpy(node.pid, args->peer_pid, (size_t)args->n_pes * sizeof(*node.pid));
    memcpy(node.net_peer, args->net_peer, (size_t)args->n_pes);
    for (int r = 0; status == GSI_OK && r < args->n_regions; r++) {
        node_region_t *reg = &node.region[r];

        status = region_alloc(reg);
        reg->mem = GST_MEM_HOST;
        reg->size = args->size[r];
        for (int pe = 0; status == GSI_OK && pe < args->n_pes; pe++) {
            if (!args->net_peer[pe])
                continue;
            status = map_host(reg, pe, args->peer_fd[pe * args->n_regions + r], 0, args->size[r]);
            if (status != GSI_OK)
                snprintf(err, errlen, "cannot map the memory of PE %d (pid %d) on this host", pe,
                         node.pid[pe]);
        }
    }
    if (status != GSI_OK) {
        if (!err[0])
            snprintf(err, errlen, "out of memory for %d PEs", args->n_pes);
        finalize();
        return status;
    }
    node.up = 1;
    return GSI_OK;
}

static gsi_status_t dev_sync(void);

static void node_finalize(void)
{
    dev_sync();
    finalize();
}

/* Where [offset, offset + len) of PE pe's copy of `region` lies here. */
static gsi_status_t locate(int pe, int region, size_t offset, size_t len, node_region_t **regp,
                           char **at)
{
    node_region_t *reg;

    if (region < 0 || region >= GST_MAX_REGIONS || pe < 0 || pe >= node.n_pes)
        return GSI_ERR_INVALID;
    reg = &node.region[region];
    if (!reg->peer || !reg->peer[pe] || offset > reg->peer_len[pe] ||
        len > reg->peer_len[pe] - offset)
        return GSI_ERR_INVALID;
    *regp = reg;
    *at = (char *)reg->peer[pe] + offset;
    return GSI_OK;
}

/* Without a GPU layer every byte is host memory: memcpy.  With one, the
 * local side may be GPU memory even where the region is host memory (a
 * lane's source in the device heap, a registered host buffer as the
 * target), so its copy, which takes either (into host memory it returns
 * with the bytes landed; into GPU memory the next quiet waits). */
static gsi_status_t copy(node_region_t *reg, void *dst, const void *src, size_t len)
{
    gsi_status_t status;

    if (!node.dev) {
        if (reg->mem != GST_MEM_HOST)
            return GSI_ERR_UNSUPPORTED;
        memcpy(dst, src, len);
        return GSI_OK;
    }
    if (!node.dev)
        return GSI_ERR_UNSUPPORTED;
    status = node.dev->copy(dst, src, len);
    if (status == GSI_OK)
        atomic_fetch_add(&node.dev_issued, 1);
    return status;
}

/* Wait for every device copy this thread issued (and any issued before). */
static gsi_status_t dev_sync(void)
{
    unsigned long long issued = atomic_load(&node.dev_issued), synced;
    gsi_status_t status;

    if (!node.dev || atomic_load(&node.dev_synced) >= issued)
        return GSI_OK;
    status = node.dev->sync();
    if (status != GSI_OK)
        return status;
    synced = atomic_load(&node.dev_synced);
    while (synced < issued && !atomic_compare_exchange_weak(&node.dev_synced, &synced, issued))
        ;
    return GSI_OK;
}

static gsi_status_t node_quiet(void)
{
    atomic_thread_fence(memory_order_seq_cst);
    return dev_sync();
}

static gsi_status_t node_put_nbi(int pe, int region, size_t offset, const void *src, size_t len)
{
    node_region_t *reg;
    char *at;
    gsi_status_t status = locate(pe, region, offset, len, &reg, &at);

    return status == GSI_OK ? copy(reg, at, src, len) : status;
}

static gsi_status_t node_get_nbi(void *dst, int pe, int region, size_t offset, size_t len)
{
    node_region_t *reg;
    char *at;
    gsi_status_t status = locate(pe, region, offset, len, &reg, &at);

    return status == GSI_OK ? copy(reg, dst, at, len) : status;
}

/* The blocking forms: a device copy is waited for, so the source may be
 * reused (put) or the destination read (get) once they return. */
static gsi_status_t node_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    gsi_status_t status = node_put_nbi(pe, region, offset, src, len);

    if (status == GSI_OK && node.dev)
        status = node_quiet();
    return status;
}

static gsi_status_t node_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    gsi_status_t status = node_get_nbi(dst, pe, region, offset, len);

    if (status == GSI_OK && node.dev)
        status = node_quiet();
    return status;
}

#define NODE_AMO(T, at, op, operand, compare, old)                                           \
    do {                                                                                     \
        T *w_ = (T *)(void *)(at), v_ = (operand) ? *(const T *)(operand) : 0;               \
        switch (op) {                                                                        \
        case GST_AMO_FETCH: old = __atomic_load_n(w_, __ATOMIC_SEQ_CST); break;              \
        case GST_AMO_SET:                                                                    \
            __atomic_store_n(w_, v_, __ATOMIC_SEQ_CST);                                      \
            old = 0;                                                                         \
            break;                                                                           \
        case GST_AMO_SWAP: old = __atomic_exchange_n(w_, v_, __ATOMIC_SEQ_CST); break;       \
        case GST_AMO_CSWAP: {                                                                \
            T c_ = *(const T *)(compare);                                                    \
            __atomic_compare_exchange_n(w_, &c_, v_, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
            old = c_;                                                                        \
            break;                                                                           \
        }                                                                                    \
        case GST_AMO_FADD: old = __atomic_fetch_add(w_, v_, __ATOMIC_SEQ_CST); break;        \
        case GST_AMO_FAND: old = __atomic_fetch_and(w_, v_, __ATOMIC_SEQ_CST); break;        \
        case GST_AMO_FOR: old = __atomic_fetch_or(w_, v_, __ATOMIC_SEQ_CST); break;          \
        case GST_AMO_FXOR: old = __atomic_fetch_xor(w_, v_, __ATOMIC_SEQ_CST); break;        \
        default: return GSI_ERR_INVALID;                                                     \
        }                                                                                    \
    } while (0)

/* CPU atomics on the shared pages of host memory: atomic with the owner's
 * and every other PE's CPU atomics on the word (the core's P2P atomics and
 * host lanes' device atomics are CPU atomics too). */
static gsi_status_t node_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                             const void *operand, const void *compare, void *fetched)
{
    node_region_t *reg;
    char *at;
    gsi_status_t status = locate(pe, region, offset, size, &reg, &at);

    if (status != GSI_OK)
        return status;
    if ((size != 4 && size != 8) || (uintptr_t)at % size)
        return GSI_ERR_INVALID;
    if (reg->mem != GST_MEM_HOST) {
        /* On the copy stream after the copies before it (a put-with-
         * signal's data before its signal). */
        if (!node.dev || !node.dev->amo)
            return GSI_ERR_UNSUPPORTED;
        return node.dev->amo(at, op, size, operand, compare, fetched);
    }
    /* Earlier device copies land before the atomic (a put-with-signal's
     * data before its signal). */
    status = node_quiet();
    if (status != GSI_OK)
        return status;
    if (size == 4) {
        uint32_t old;

        NODE_AMO(uint32_t, at, op, operand, compare, old);
        if (fetched)
            memcpy(fetched, &old, 4);
    } else {
        uint64_t old;

        NODE_AMO(uint64_t, at, op, operand, compare, old);
        if (fetched)
            memcpy(fetched, &old, 8);
    }
    return GSI_OK;
}

/* Copies to one PE land in the order they were issued only if nothing is
 * in flight between them: fence is quiet. */
static gsi_status_t node_fence(void)
{
    return node_quiet();
}

/* What a PE publishes about a host region added after init. */
typedef struct node_card {
    int32_t ok, fd;
    uint64_t offset, size;
} node_card_t;

/* Host memory: every PE finds the file behind its buffer (a memfd, a
 * file in /dev/shm) and maps the others'.  Collective. */
static gsi_status_t map_host_region(node_region_t *reg, void *base, size_t size, char *err,
                                    size_t errlen)
{
    node_card_t mine = {0}, *all;
    char why[256] = "";
    gsi_status_t status = GSI_OK;

    if (gsi_shared_map_find(base, size, &mine.fd, &mine.offset, why, sizeof(why)) == GSI_OK)
        mine.ok = 1;
    mine.size = size;
    all = calloc((size_t)node.n_pes, sizeof(*all));
    if (!all) {
        snprintf(err, errlen, "out of memory for %d PEs", node.n_pes);
        return GSI_ERR_NOMEM;
    }
    if (node.allgather(&mine, all, sizeof(mine)) != 0) {
        free(all);
        snprintf(err, errlen, "the exchange of a region's descriptors failed");
        return GSI_ERR_BOOTSTRAP;
    }
    region_unmap(reg);
    for (int pe = 0; status == GSI_OK && pe < node.n_pes; pe++) {
        if (!node.net_peer[pe])
            continue;
        if (!all[pe].ok) {
            snprintf(err, errlen, "PE %d's buffer is not shared memory that this PE can map%s%s",
                     pe, pe == node.my_pe ? ": " : "", pe == node.my_pe ? why : "");
            status = GSI_ERR_INVALID;
        } else if (all[pe].size != size) {
            snprintf(err, errlen, "PE %d registered %llu bytes, this PE %zu", pe,
                     (unsigned long long)all[pe].size, size);
            status = GSI_ERR_MISMATCH;
        } else if (map_host(reg, pe, all[pe].fd, all[pe].offset, size) != GSI_OK) {
            snprintf(err, errlen, "cannot map the memory of PE %d (pid %d) on this host", pe,
                     node.pid[pe]);
            status = GSI_ERR_SYSTEM;
        }
    }
    free(all);
    return status;
}

static gsi_status_t node_map_region(int region, void *base, size_t size, gst_mem_type_t mem_type,
                                    char *err, size_t errlen)
{
    node_region_t *reg;
    gsi_status_t status;

    if (region < node.n_regions || region >= GST_MAX_REGIONS) {
        snprintf(err, errlen, "region %d is not one added after init", region);
        return GSI_ERR_INVALID;
    }
    reg = &node.region[region];
    if (size == 0) {
        dev_sync();
        region_unmap(reg);
        return GSI_OK;
    }
    status = region_alloc(reg);
    if (status != GSI_OK) {
        snprintf(err, errlen, "out of memory for %d PEs", node.n_pes);
        return status;
    }
    reg->mem = mem_type;
    if (mem_type == GST_MEM_HOST) {
        status = map_host_region(reg, base, size, err, errlen);
        if (status == GSI_OK)
            reg->size = size;
        return status;
    }
    /* Device memory: the layer above mapped every peer's copy
     * (gst_node_map_peer) before this call. */
    for (int pe = 0; pe < node.n_pes; pe++)
        if (node.net_peer[pe] && reg->peer_len[pe] < size) {
            snprintf(err, errlen,
                     "PE %d's device memory is not mapped in this process (%zu of %zu bytes)", pe,
                     reg->peer_len[pe], size);
            return GSI_ERR_NO_TRANSPORT;
        }
    reg->size = size;
    return GSI_OK;
}

gsi_status_t gst_node_map_peer(int region, int pe, void *addr, size_t size)
{
    node_region_t *reg;
    gsi_status_t status;

    if (!node.up || region < node.n_regions || region >= GST_MAX_REGIONS || pe < 0 ||
        pe >= node.n_pes)
        return GSI_ERR_INVALID;
    reg = &node.region[region];
    status = region_alloc(reg);
    if (status != GSI_OK)
        return status;
    reg->peer[pe] = (uintptr_t)addr;
    reg->peer_len[pe] = addr ? size : 0;
    return GSI_OK;
}

/* Host memory: everything.  Device memory: put and get where the GPU layer
 * gave a copy routine, atomics only where it does them on the GPU (never a
 * read-modify-write made of copies: that is not atomic with the owner
 * GPU's own atomics on the word, signals and barrier counters, and device
 * code would silently lose updates). */
static unsigned node_caps(gst_mem_type_t mem_type, char *why, size_t whylen)
{
    if (mem_type == GST_MEM_HOST)
        return GST_CAP_ALL;
    if (!node.dev) {
        snprintf(why, whylen, "the node transport has no way to copy GPU memory in this process");
        return 0;
    }
    if (!node.dev->amo) {
        snprintf(why, whylen, "the node transport has no atomics on GPU memory here: %s",
                 node.dev->no_amo ? node.dev->no_amo : "unknown reason");
        return GST_CAP_PUT | GST_CAP_GET;
    }
    return GST_CAP_ALL;
}

const gst_ops_t gst_node_ops = {
    .name = "node",
    .init = node_init,
    .finalize = node_finalize,
    .progress = NULL,
    .put = node_put,
    .get = node_get,
    .amo = node_amo,
    .fence = node_fence,
    .quiet = node_quiet,
    .map_region = node_map_region,
    .caps = node_caps,
    .mem_reg = NULL,
    .mem_dereg = NULL,
    .put_nbi = node_put_nbi,
    .get_nbi = node_get_nbi,
    .p_nbi = NULL,
    .amo_nbi = NULL,
    .post = NULL,
};
