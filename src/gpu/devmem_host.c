/* src/gpu/devmem_host.c - the device API's memory on host lanes: plain host
 * memory for the channels, the host symmetric heap (region 0) as the device
 * heap, and the exported gshmemi_state as what device code reads. */
#include "gpu/devmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/sync.h"
#include "core/heap.h"
#include "core/pe.h"

/* What device code compiled for host lanes reads as GSD_STATE. */
__attribute__((visibility("default"))) gsd_state_t gshmemi_state;

static uint64_t *peer_base; /* [n_pes] gshmemi_state.peer_base */

static gsi_status_t host_init(const char *fn)
{
    (void)fn;
    return GSI_OK;
}

static void host_fini(void)
{
    free(peer_base);
    peer_base = NULL;
}

/* Cache-line aligned and zeroed: channel words are polled by other threads. */
static void *zalloc(size_t size)
{
    void *p;

    size = (size + 63) & ~(size_t)63;
    if (posix_memalign(&p, 64, size ? size : 64) != 0)
        return NULL;
    memset(p, 0, size);
    return p;
}

/* Mapped memory (the proxy channels: 1.25 MiB each at the default ring):
 * fresh anonymous pages, which the kernel zeroes as they are first
 * touched, so init pays nothing for the part of a ring no run reaches
 * (zalloc's memset of 4 channels was 1280 page faults at shmem_init).  A
 * page before the block keeps its length for the unmap. */
static void *host_alloc_mapped(size_t size, void **dev)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t len = (size_t)page + ((size + (size_t)page - 1) & ~((size_t)page - 1));
    char *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (base == MAP_FAILED)
        return NULL;
    memcpy(base, &len, sizeof(len));
    *dev = base + page;
    return base + page;
}

static void host_free_mapped(void *host)
{
    char *base = (char *)host - sysconf(_SC_PAGESIZE);
    size_t len;

    if (!host)
        return;
    memcpy(&len, base, sizeof(len));
    munmap(base, len);
}

static void *host_alloc_device(size_t size)
{
    return zalloc(size);
}

static void host_free_device(void *dev)
{
    free(dev);
}

static void host_copy_to_device(void *dev, const void *host, size_t size)
{
    memcpy(dev, host, size);
}

/* Lanes read it with acquire while the host writes it (a team made while a
 * kernel runs). */
static void host_store32_release(uint32_t *dev, uint32_t value)
{
    __atomic_store_n(dev, value, __ATOMIC_RELEASE);
}

static void *host_heap_alloc(const char *fn, size_t size, size_t align)
{
    return gsi_heap_alloc(fn, size, align);
}

static gsi_status_t host_heap_free(void *ptr)
{
    return gsi_heap_free(ptr);
}

/* Lanes of a running kernel may be reading the state (a team created from
 * the host meanwhile): only the words that change are written, each whole. */
/* Host-lane code of every shared object reads gshmemi_state, exported by
 * libgshmem.so: one copy, so a module has nothing of its own to fill. */
static gsi_status_t host_module(const char *fn, int library, void *handle, int attach)
{
    (void)fn, (void)library, (void)handle, (void)attach;
    return GSI_OK;
}

static gsi_status_t host_publish(const gsd_state_t *s)
{
    const uint64_t *from = (const uint64_t *)(const void *)s;
    uint64_t *to = (uint64_t *)(void *)&gshmemi_state;

    _Static_assert(sizeof(gsd_state_t) % sizeof(uint64_t) == 0, "gsd_state_t is whole words");
    for (size_t i = 0; i < sizeof(gsd_state_t) / sizeof(uint64_t); i++)
        if (__atomic_load_n(&to[i], __ATOMIC_RELAXED) != from[i])
            __atomic_store_n(&to[i], from[i], __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return GSI_OK;
}

static gsi_status_t host_heap_info(gsd_state_t *s)
{
    const gsi_region_t *heap = &gsi_pe.region[GSI_REGION_HEAP];

    free(peer_base);
    peer_base = calloc((size_t)gsi_pe.n_pes, sizeof(*peer_base));
    if (!peer_base)
        return GSI_ERR_NOMEM;
    for (int pe = 0; pe < gsi_pe.n_pes; pe++)
        peer_base[pe] = heap->peer[pe];
    s->heap_region = GSI_REGION_HEAP;
    s->heap_base = heap->base;
    s->heap_size = heap->size;
    s->peer_base = peer_base;
    return GSI_OK;
}

/* In the library's area after the user's blocks (src/coll/sync.h): a fresh
 * memfd, so zero, and out of the way of the user's allocations. */
static gsd_sync_t *host_sync_area(const char *fn)
{
    (void)fn;
    return (gsd_sync_t *)(void *)((char *)gsi_pe.sync + GSI_DEV_SYNC_OFFSET);
}

const gsi_devmem_ops_t gsi_devmem_host = {
    .name = "host",
    .heap_mem = GST_MEM_HOST, /* the host heap itself */
    .init = host_init,
    .fini = host_fini,
    .drain = NULL, /* lanes run each call to its end; gsi_lanes_fini stops them */
    .alloc_mapped = host_alloc_mapped,
    .free_mapped = host_free_mapped,
    .alloc_device = host_alloc_device,
    .free_device = host_free_device,
    .copy_to_device = host_copy_to_device,
    .store32_release = host_store32_release,
    .copy = host_copy_to_device, /* all of it is host memory */
    .heap_alloc = host_heap_alloc,
    .heap_free = host_heap_free,
    .publish = host_publish,
    .heap_info = host_heap_info,
    .sync_area = host_sync_area,
    .flush_remote_writes = NULL, /* the transport's writes to host memory are visible once done */
    .module = host_module,
};
