/* src/gpu/cuda/cuda_heap.c - the device heap on a GPU: gshmem_malloc's memory.
 *
 * A virtual range of GSHMEM_DEVICE_HEAP_SIZE bytes (rounded to the commit
 * granularity) is reserved once at init (cuMemAddressReserve); physical
 * GPU memory is committed at its start in chunks (cuMemCreate, cuMemMap,
 * cuMemSetAccess) as allocations reach past what is committed.  The
 * allocator (src/core/alloc.c, first fit over the whole range) is
 * deterministic and the granularity and range are the same on every PE
 * (the job-wide largest granularity), so every PE grows at the same call to
 * the same size: growth is collective without a vote.
 *
 * Node peers (PEs whose host heap is mapped here, src/core/peers.c) map each other's
 * chunks: each chunk is exported as a POSIX file descriptor
 * (cuMemExportToShareableHandle), passed over a Unix socket (cuda_ipc.c),
 * imported and mapped at the same offset of a range reserved for that peer,
 * so peer_base[pe] + offset is the peer's byte for device code.  Other PEs
 * are reached through the proxy and the network transport, which registers
 * each chunk as CUDA memory (map_region, src/net/transport.h) and exchanges its
 * keys.  Nothing is unmapped before finalize; a freed block is reused.
 *
 * Under the node transport (GSHMEM_TRANSPORT=node, src/net/node/), the PEs
 * of this host that P2P does not map are imported the same way, but for
 * the host only: their peer_base stays 0, so device code reaches them
 * through the proxy, which copies into the mapping (cuda_copy.c); atomics
 * there run on this PE's GPU, so they are offered only where the two GPUs
 * have native atomics between them (check_peer_atomics).
 *
 * Device atomics, signal adds and barrier counters on a mapped peer's heap
 * are atomic only where the two GPUs have native atomics between them (the
 * same GPU, NVLink; PCIe often has none, and cuMemSetAccess succeeds
 * regardless).  So every PE learns each PE's GPU by PCI bus id at init and
 * refuses a node peer without native atomics with one line
 * (check_peer_atomics, src/gpu/caps.h).  Compiled, not run. */
#define _GNU_SOURCE
#include "config.h"
#include "gpu/cuda/cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "bootstrap/bootstrap.h"
#include "core/alloc.h"
#include "core/heap_keep.h"
#include "core/pe.h"
#include "gpu/caps.h"
#include "gpu/cuda/cuda_driver.h"
#include "net/node/node.h"
#include "net/transport.h"

#define GROW_MIN ((size_t)64 << 20) /* a growth commits at least this much, */
#define GROW_MAX ((size_t)2 << 30)  /* else the committed size, up to this */
#define IPC_TIMEOUT_S 120           /* node peers answer a growth within this */
#define GPU_ID_LEN 32               /* a PCI bus id, "0000:41:00.0", and its NUL */

typedef struct heap_chunk {
    size_t offset, size;
    CUmemGenericAllocationHandle own;
    CUmemGenericAllocationHandle *peer; /* [n_peers] imported; 0: not mapped */
} heap_chunk_t;

static struct {
    int up;
    size_t reserve;   /* bytes of address range per PE */
    size_t gran;      /* commit granularity, job-wide */
    size_t committed; /* bytes mapped from base */
    CUdeviceptr base;
    CUmemAllocationProp prop;
    CUmemAccessDesc access;
    int n_peers;          /* node peers mapped here */
    int *peers;           /* [n_peers] their world PEs */
    CUdeviceptr *peer_va; /* [n_peers] the range reserved for each */
    char *direct;         /* [n_peers] 1: P2P (device code loads and stores it), 0: the node
                             transport's (the proxy copies into it) */
    int node;             /* some peers are the node transport's */
    uint64_t *peer_base;  /* [n_pes] host copy of gsd_state_t.peer_base */
    void *peer_base_dev;  /* its device copy */
    heap_chunk_t *chunks;
    int n_chunks, cap_chunks;
    gsi_alloc_t alloc;
    uint64_t tag;            /* growths so far: the exchange's tag */
    char (*gpu)[GPU_ID_LEN]; /* [n_pes] each PE's GPU, by PCI bus id */
} heap;

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

static gsi_status_t cu_failed(const char *fn, const char *what, CUresult r)
{
    GSI_WARN("%s: device heap: %s: %s", fn, what, gsi_cu_error(r));
    return r == CUDA_ERROR_OUT_OF_MEMORY ? GSI_ERR_NOMEM : GSI_ERR_SYSTEM;
}

static void release(void);

/* ---- init ---------------------------------------------------------------------- */

/* Agree on granularity (the largest) and size (must be equal). */
static gsi_status_t agree(const char *fn, size_t gran)
{
    uint64_t mine[2] = {gran, gsi_pe.env.device_heap_size}, *all;

    all = calloc((size_t)gsi_pe.n_pes * 2, sizeof(*all));
    if (!all)
        return GSI_ERR_NOMEM;
    if (gsi_pe.boot->allgather(mine, all, sizeof(mine)) != 0) {
        free(all);
        return GSI_ERR_BOOTSTRAP;
    }
    heap.gran = gran;
    for (int pe = 0; pe < gsi_pe.n_pes; pe++) {
        if (all[2 * pe + 1] != mine[1]) {
            GSI_WARN("%s: PE %d has a device heap of %llu bytes, this PE %llu (set "
                     "GSHMEM_DEVICE_HEAP_SIZE alike on every PE)",
                     fn, pe, (unsigned long long)all[2 * pe + 1], (unsigned long long)mine[1]);
            free(all);
            return GSI_ERR_MISMATCH;
        }
        if (all[2 * pe] > heap.gran)
            heap.gran = (size_t)all[2 * pe];
    }
    free(all);
    heap.reserve = round_up(gsi_pe.env.device_heap_size, heap.gran);
    return GSI_OK;
}

/* Learn every PE's GPU (collective). */
static gsi_status_t learn_gpus(const char *fn)
{
    char mine[GPU_ID_LEN] = "";
    CUresult r;

    heap.gpu = calloc((size_t)gsi_pe.n_pes, sizeof(*heap.gpu));
    if (!heap.gpu)
        return GSI_ERR_NOMEM;
    r = GSI_CU(cuDeviceGetPCIBusId)(mine, GPU_ID_LEN, gsi_cuda.dev);
    if (r != CUDA_SUCCESS) /* still collective: an empty id matches no GPU */
        cu_failed(fn, "cuDeviceGetPCIBusId", r);
    if (gsi_pe.boot->allgather(mine, heap.gpu, GPU_ID_LEN) != 0)
        return GSI_ERR_BOOTSTRAP;
    for (int pe = 0; pe < gsi_pe.n_pes; pe++)
        heap.gpu[pe][GPU_ID_LEN - 1] = '\0';
    return GSI_OK;
}

/* Each node peer's heap is mapped only if device atomics on it stay atomic
 * from this PE's GPU; else the job ends with one line (caps.h).  A peer of
 * the node transport's is mapped regardless (copies need no atomics), and
 * no_amo says why that transport must not run atomics on it (caps.c then
 * refuses a device job with one line). */
static void check_peer_atomics(const char *fn, char *no_amo, size_t no_amo_len)
{
    const char *me = heap.gpu[gsi_pe.my_pe];

    for (int i = 0; i < heap.n_peers; i++) {
        int pe = heap.peers[i], same = me[0] && strcmp(heap.gpu[pe], me) == 0;
        int query_ok = 0, native = 0;
        gsi_p2p_atomics_t verdict;
        char line[768];
        CUdevice peer;

        if (!same && heap.gpu[pe][0] &&
            GSI_CU(cuDeviceGetByPCIBusId)(&peer, heap.gpu[pe]) == CUDA_SUCCESS)
            query_ok = GSI_CU(
                           cuDeviceGetP2PAttribute)(&native,
                                                    CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
                                                    gsi_cuda.dev, peer) == CUDA_SUCCESS;
        verdict = gsi_caps_p2p_atomics(same, query_ok, native);
        if (verdict == GSI_P2P_ATOMICS_NATIVE)
            continue;
        if (!heap.direct[i]) {
            if (!no_amo[0])
                snprintf(no_amo, no_amo_len,
                         "PE %d's GPU %s and this PE's GPU %s have %s native atomics between them",
                         pe, heap.gpu[pe][0] ? heap.gpu[pe] : "(unknown)", me[0] ? me : "(unknown)",
                         verdict == GSI_P2P_ATOMICS_NONE ? "no" : "perhaps no");
            continue;
        }
        gsi_caps_p2p_line(verdict, pe, heap.gpu[pe][0] ? heap.gpu[pe] : "(unknown)",
                          me[0] ? me : "(unknown)", line, sizeof(line));
        gsi_fatal(fn, "%s", line);
    }
}

static gsi_status_t find_peers(void)
{
    const gsi_region_t *host = &gsi_pe.region[GSI_REGION_HEAP];

    heap.peers = calloc((size_t)gsi_pe.n_pes, sizeof(*heap.peers));
    heap.peer_va = calloc((size_t)gsi_pe.n_pes, sizeof(*heap.peer_va));
    heap.peer_base = calloc((size_t)gsi_pe.n_pes, sizeof(*heap.peer_base));
    heap.direct = calloc((size_t)gsi_pe.n_pes, 1);
    if (!heap.peers || !heap.peer_va || !heap.peer_base || !heap.direct)
        return GSI_ERR_NOMEM;
    /* The node transport reaches only PEs of this host (it refused the job
     * otherwise): every PE that P2P does not map is its. */
    for (int pe = 0; pe < gsi_pe.n_pes; pe++) {
        int direct = host->peer && host->peer[pe];

        if (pe == gsi_pe.my_pe || (!direct && !gst_node_active()))
            continue;
        heap.direct[heap.n_peers] = (char)direct;
        heap.node |= !direct;
        heap.peers[heap.n_peers++] = pe;
    }
    return GSI_OK;
}

gsi_status_t gsi_cuda_heap_init(const char *fn)
{
    CUmemAllocationProp *prop = &heap.prop;
    char no_amo[256] = "";
    size_t gran = 0;
    gsi_status_t status;
    CUresult r;

    memset(&heap, 0, sizeof(heap));
    prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop->location.id = gsi_cuda.ordinal;
    prop->requestedHandleTypes = gsi_cuda.posix_fd ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
                                                   : CU_MEM_HANDLE_TYPE_NONE;
    /* The NIC may read and write it (GPUDirect RDMA through UCX). */
    prop->allocFlags.gpuDirectRDMACapable = gsi_cuda.rdma_vmm ? 1 : 0;
    heap.access.location = prop->location;
    heap.access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    r = GSI_CU(cuMemGetAllocationGranularity)(&gran, prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    if (r != CUDA_SUCCESS)
        return cu_failed(fn, "cuMemGetAllocationGranularity", r);
    /* Collective steps first, each on every PE, so that a PE that fails
     * later does not leave the others waiting in one of them. */
    status = agree(fn, gran);
    if (status == GSI_OK)
        status = learn_gpus(fn);
    if (status == GSI_OK)
        status = gsi_cuda_ipc_open(fn);
    if (status != GSI_OK)
        goto err_fini;
    status = find_peers();
    if (status != GSI_OK)
        goto err_fini;
    if (heap.n_peers && !gsi_cuda.posix_fd) {
        GSI_WARN("%s: GPU %d cannot export memory as file descriptors, so node peers cannot map "
                 "its device heap (%s)",
                 fn, gsi_cuda.ordinal,
                 heap.node ? "the node transport needs that: use GSHMEM_TRANSPORT=ucx or verbs"
                           : "GSHMEM_DISABLE_P2P=1 reaches them through the network");
        status = GSI_ERR_UNSUPPORTED;
        goto err_fini;
    }
    check_peer_atomics(fn, no_amo, sizeof(no_amo));
    r = GSI_CU(cuMemAddressReserve)(&heap.base, heap.reserve, heap.gran, 0, 0);
    if (r != CUDA_SUCCESS) {
        status = cu_failed(fn, "reserving its address range (GSHMEM_DEVICE_HEAP_SIZE)", r);
        goto err_fini;
    }
    for (int i = 0; i < heap.n_peers; i++) {
        r = GSI_CU(cuMemAddressReserve)(&heap.peer_va[i], heap.reserve, heap.gran, 0, 0);
        if (r != CUDA_SUCCESS) {
            status = cu_failed(fn, "reserving address range for a node peer's heap", r);
            goto err_fini;
        }
    }
    status = gsi_alloc_init(&heap.alloc, heap.reserve);
    if (status != GSI_OK)
        goto err_fini;
    heap.peer_base[gsi_pe.my_pe] = (uint64_t)heap.base;
    for (int i = 0; i < heap.n_peers; i++)
        if (heap.direct[i])
            heap.peer_base[heap.peers[i]] = (uint64_t)heap.peer_va[i];
    heap.peer_base_dev = gsi_cuda_alloc_device((size_t)gsi_pe.n_pes * sizeof(uint64_t));
    if (!heap.peer_base_dev) {
        status = GSI_ERR_NOMEM;
        goto err_fini;
    }
    gsi_cuda_copy_to_device(heap.peer_base_dev, heap.peer_base,
                            (size_t)gsi_pe.n_pes * sizeof(uint64_t));
    if (heap.node)
        gsi_cuda_node_start(no_amo[0] ? no_amo : NULL);
    heap.up = 1;
    GSI_DEBUG("device heap: %zu bytes of address range at %#llx (granularity %zu), %d node "
              "peers mapped",
              heap.reserve, (unsigned long long)heap.base, heap.gran, heap.n_peers);
    return GSI_OK;

err_fini:
    release();
    return status;
}

/* ---- growth -------------------------------------------------------------------- */

static gsi_status_t map_range(CUdeviceptr at, size_t size, CUmemGenericAllocationHandle h,
                              const char *fn)
{
    CUresult r = GSI_CU(cuMemMap)(at, size, 0, h, 0);

    if (r != CUDA_SUCCESS)
        return cu_failed(fn, "cuMemMap", r);
    r = GSI_CU(cuMemSetAccess)(at, size, &heap.access, 1);
    if (r != CUDA_SUCCESS) {
        GSI_CU(cuMemUnmap)(at, size);
        return cu_failed(fn, "cuMemSetAccess (can this GPU reach the peer's?)", r);
    }
    return GSI_OK;
}

/* Map node peers' copies of chunk c. */
static gsi_status_t share_chunk(const char *fn, heap_chunk_t *c)
{
    int fd = -1, *in;
    gsi_status_t status;
    CUresult r;

    c->peer = calloc((size_t)heap.n_peers, sizeof(*c->peer));
    in = calloc((size_t)heap.n_peers, sizeof(*in));
    if (!c->peer || !in) {
        free(in);
        return GSI_ERR_NOMEM;
    }
    r = GSI_CU(cuMemExportToShareableHandle)(&fd, c->own, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                             0);
    if (r != CUDA_SUCCESS) {
        free(in);
        return cu_failed(fn, "cuMemExportToShareableHandle", r);
    }
    status = gsi_cuda_ipc_exchange(fd, heap.peers, heap.n_peers, heap.tag, in, IPC_TIMEOUT_S);
    close(fd);
    for (int i = 0; status == GSI_OK && i < heap.n_peers; i++) {
        r = GSI_CU(cuMemImportFromShareableHandle)(&c->peer[i], (void *)(uintptr_t)in[i],
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        if (r != CUDA_SUCCESS) {
            c->peer[i] = 0;
            status = cu_failed(fn, "cuMemImportFromShareableHandle", r);
            break;
        }
        status = map_range(heap.peer_va[i] + c->offset, c->size, c->peer[i], fn);
        if (status != GSI_OK) {
            GSI_WARN("%s: PE %d's device heap cannot be mapped on this PE's GPU %d; %s", fn,
                     heap.peers[i], gsi_cuda.ordinal,
                     heap.direct[i] ? "GSHMEM_DISABLE_P2P=1 reaches it through the network instead"
                                    : "the node transport needs that mapping (use "
                                      "GSHMEM_TRANSPORT=ucx or verbs)");
            GSI_CU(cuMemRelease)(c->peer[i]);
            c->peer[i] = 0;
        }
    }
    for (int i = 0; i < heap.n_peers; i++)
        if (in[i] >= 0)
            close(in[i]);
    free(in);
    return status;
}

/* 1 when every chunk of peer i is mapped here (so far). */
static int peer_mapped(int i)
{
    for (int k = 0; k < heap.n_chunks; k++)
        if (!heap.chunks[k].peer || !heap.chunks[k].peer[i])
            return 0;
    return 1;
}

/* Commit [committed, to): collective, every PE with the same `to`. */
static gsi_status_t grow(const char *fn, size_t need)
{
    size_t step = heap.committed < GROW_MIN   ? GROW_MIN
                  : heap.committed < GROW_MAX ? heap.committed
                                              : GROW_MAX;
    size_t to = round_up(need > heap.committed + step ? need : heap.committed + step, heap.gran);
    char err[512] = "";
    heap_chunk_t *c;
    gsi_status_t status;
    CUresult r;

    if (to > heap.reserve)
        to = heap.reserve;
    if (heap.n_chunks == heap.cap_chunks) {
        int cap = heap.cap_chunks ? 2 * heap.cap_chunks : 8;
        heap_chunk_t *chunks = realloc(heap.chunks, (size_t)cap * sizeof(*chunks));

        if (!chunks)
            return GSI_ERR_NOMEM;
        heap.chunks = chunks;
        heap.cap_chunks = cap;
    }
    c = &heap.chunks[heap.n_chunks];
    memset(c, 0, sizeof(*c));
    c->offset = heap.committed;
    c->size = to - heap.committed;
    r = GSI_CU(cuMemCreate)(&c->own, c->size, &heap.prop, 0);
    if (r != CUDA_SUCCESS)
        return cu_failed(fn, "cuMemCreate (is the GPU's memory used by other processes?)", r);
    status = map_range(heap.base + c->offset, c->size, c->own, fn);
    if (status != GSI_OK) {
        GSI_CU(cuMemRelease)(c->own);
        return status;
    }
    heap.n_chunks++;
    /* Fresh memory reads as zero, like the host heap's. */
    status = gsi_cuda_zero((void *)(uintptr_t)(heap.base + c->offset), c->size);
    if (status == GSI_OK && heap.n_peers)
        status = share_chunk(fn, c);
    heap.tag++;
    for (int i = 0; status == GSI_OK && heap.node && i < heap.n_peers; i++)
        if (!heap.direct[i] && peer_mapped(i))
            status = gst_node_map_peer(GSI_CUDA_REGION, heap.peers[i],
                                       (void *)(uintptr_t)heap.peer_va[i], to);
    if (status == GSI_OK && gsi_pe.net && gsi_pe.net->map_region) {
        gsi_cuda_bind_thread();
        status = gsi_pe.net->map_region(GSI_CUDA_REGION, (void *)(uintptr_t)heap.base, to,
                                        GST_MEM_CUDA, err, sizeof(err));
        if (status != GSI_OK)
            GSI_WARN("%s: device heap: transport %s: %s", fn, gsi_pe.net->name, err);
    }
    if (status == GSI_OK)
        heap.committed = to;
    return status;
}

void *gsi_cuda_heap_alloc(const char *fn, size_t size, size_t align)
{
    size_t off;

    if (!heap.up)
        return NULL;
    if (gsi_alloc_get(&heap.alloc, size, align, &off) != GSI_OK) {
        GSI_WARN("%s: the device heap has no room for %zu bytes (largest free block %zu of "
                 "%zu: raise GSHMEM_DEVICE_HEAP_SIZE)",
                 fn, size, gsi_alloc_largest_free(&heap.alloc), heap.reserve);
        return NULL;
    }
    /* Every PE reaches this with the same offset, so every PE grows. */
    if (off + size > heap.committed) {
        gsi_cuda_bind_thread();
        if (grow(fn, off + size) != GSI_OK)
            gsi_fatal(fn,
                      "cannot commit GPU memory for the device heap (%zu of %zu bytes "
                      "committed, %zu more needed); the line above says why",
                      heap.committed, heap.reserve, off + size - heap.committed);
    }
    return (void *)(uintptr_t)(heap.base + off);
}

gsi_status_t gsi_cuda_heap_free(void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;

    if (!heap.up || p < heap.base || p - heap.base >= heap.reserve)
        return GSI_ERR_INVALID;
    return gsi_alloc_put(&heap.alloc, p - heap.base);
}

gsi_status_t gsi_cuda_heap_info(gsd_state_t *s)
{
    if (!heap.up)
        return GSI_ERR_INVALID;
    s->heap_region = GSI_CUDA_REGION;
    s->heap_base = (uint64_t)heap.base;
    s->heap_size = heap.reserve;
    s->peer_base = heap.peer_base_dev;
    return GSI_OK;
}

/* ---- finalize ------------------------------------------------------------------ */

/* This PE's own chunks and range, handed to a heap hold at finalize
 * (core/heap_keep.h): a binding's CUDA tensors over them outlive it. */
typedef struct kept_heap {
    CUdeviceptr base;
    size_t reserve;
    int n;
    struct {
        size_t offset, size;
        CUmemGenericAllocationHandle own;
    } chunk[];
} kept_heap_t;

static void unmap_kept(void *arg)
{
    kept_heap_t *k = arg;

    for (int i = 0; i < k->n; i++) {
        GSI_CU(cuMemUnmap)(k->base + k->chunk[i].offset, k->chunk[i].size);
        GSI_CU(cuMemRelease)(k->chunk[i].own);
    }
    GSI_CU(cuMemAddressFree)(k->base, k->reserve);
    free(k);
}

/* 1 when a hold took the own chunks and the range: release leaves them. */
static int keep_own(void)
{
    kept_heap_t *k;

    if (!heap.base)
        return 0;
    k = malloc(sizeof(*k) + (size_t)heap.n_chunks * sizeof(k->chunk[0]));
    if (!k)
        return 0;
    k->base = heap.base;
    k->reserve = heap.reserve;
    k->n = heap.n_chunks;
    for (int i = 0; i < heap.n_chunks; i++) {
        k->chunk[i].offset = heap.chunks[i].offset;
        k->chunk[i].size = heap.chunks[i].size;
        k->chunk[i].own = heap.chunks[i].own;
    }
    if (gsi_heap_hold_take(unmap_kept, k))
        return 1;
    free(k);
    return 0;
}

/* Undo what init and growth did (also a half-done init: not collective). */
static void release(void)
{
    char err[256];
    int kept = keep_own();

    if (heap.n_chunks && gsi_pe.net && gsi_pe.net->map_region)
        gsi_pe.net->map_region(GSI_CUDA_REGION, NULL, 0, GST_MEM_CUDA, err, sizeof(err));
    if (heap.node)
        gsi_cuda_node_stop();
    for (int k = 0; k < heap.n_chunks; k++) {
        heap_chunk_t *c = &heap.chunks[k];

        for (int i = 0; c->peer && i < heap.n_peers; i++)
            if (c->peer[i]) {
                GSI_CU(cuMemUnmap)(heap.peer_va[i] + c->offset, c->size);
                GSI_CU(cuMemRelease)(c->peer[i]);
            }
        free(c->peer);
        if (kept)
            continue;
        GSI_CU(cuMemUnmap)(heap.base + c->offset, c->size);
        GSI_CU(cuMemRelease)(c->own);
    }
    for (int i = 0; heap.peer_va && i < heap.n_peers; i++)
        if (heap.peer_va[i])
            GSI_CU(cuMemAddressFree)(heap.peer_va[i], heap.reserve);
    if (heap.base && !kept)
        GSI_CU(cuMemAddressFree)(heap.base, heap.reserve);
    if (heap.peer_base_dev)
        gsi_cuda_free_device(heap.peer_base_dev);
    if (heap.alloc.blocks)
        gsi_alloc_fini(&heap.alloc);
    gsi_cuda_ipc_close();
    free(heap.chunks);
    free(heap.peers);
    free(heap.peer_va);
    free(heap.peer_base);
    free(heap.direct);
    free(heap.gpu);
    memset(&heap, 0, sizeof(heap));
}

void gsi_cuda_heap_fini(void)
{
    if (!heap.up)
        return;
    /* Every PE's proxy has drained (src/gpu/device.c stops it before this)
     * before any PE takes its heap from the network and its peers. */
    gsi_pe.boot->barrier();
    release();
}
