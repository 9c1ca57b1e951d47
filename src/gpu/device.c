/* src/gpu/device.c - this PE's device state (device/gsd/state.h): built at
 * init from the core's state, published once where device code reads it
 * (gshmemi_state on host lanes, the GPU's constant copy with CUDA), torn
 * down at finalize.  Teams change while kernels run, so they are not in
 * that copy: they live in a device-visible table, and a team made or
 * destroyed rewrites its own slot only, body first and its n_pes word last
 * (release; device code reads it with acquire, gsd/team.h).  A kernel
 * running on TEAM_WORLD therefore never reads a word that is being written.
 *
 * The device sync area (gsd_sync_t, the device collectives' words) comes
 * from the memory backend (sync_area): at the same offset on every PE,
 * inside the heap range device code may address on peers. */
#include "config.h"
#include "gpu/device.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coll/sync.h"
#include "coll/team.h"
#include "core/pe.h"
#include "core/symreg.h"
#include "gpu/caps.h"
#include "gpu/lanes.h"
#include "gpu/proxy.h"
#include "gpu/watch.h"

static struct {
    pthread_mutex_t lock;        /* teams may be made by several threads at once */
    const gsi_devmem_ops_t *mem; /* NULL: not up */
    gsd_state_t state;           /* what is published, once, at init */
    /* Device copies of non-strided teams' members: slot s's are at
     * team_pes + s * n_pes, in one allocation made at init.  A team made or
     * destroyed while kernels run neither allocates nor frees device
     * memory: cuMemFree waits for the device to go idle, and a kernel that
     * waits for the host would then never end. */
    int32_t *team_pes;
    /* The device heap as a core region (a GPU only): host RMA reaches it. */
    int region;          /* its index; -1: none added */
    uintptr_t *no_peer;  /* [n_pes] zeros: the CPU dereferences no peer's copy */
    uintptr_t *dev_peer; /* [n_pes] host copy of state.peer_base */
    uint64_t *exit_req;  /* host address of state.exit_req (watch.h) */
} dev = {.lock = PTHREAD_MUTEX_INITIALIZER, .region = -1};

#define ZERO_CHUNK (4u << 20) /* bytes of zeros per copy */

_Static_assert(GSD_MAX_TEAMS == GSI_MAX_TEAMS, "a device team id is a host team slot");

const gsi_devmem_ops_t *gsi_device_mem(void)
{
    return dev.mem;
}

static const gsi_devmem_ops_t *choose_mem(void)
{
#ifdef GSHMEM_HAVE_CUDA
    if (gsi_cuda_usable())
        return &gsi_devmem_cuda;
#endif
    return &gsi_devmem_host;
}

/* The backends copy, they do not set: zeros come from a zeroed buffer, as
 * large as can be had (few copies on a GPU). */
void gsi_device_memzero(void *ptr, size_t n)
{
    static const char small[16384];
    static const char *big;
    const char *zero;
    size_t chunk;

    if (!__atomic_load_n(&big, __ATOMIC_ACQUIRE) && n > sizeof(small)) {
        const char *fresh = calloc(1, ZERO_CHUNK), *none = NULL;

        if (fresh &&
            !__atomic_compare_exchange_n(&big, &none, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            free((void *)fresh);
    }
    zero = __atomic_load_n(&big, __ATOMIC_ACQUIRE);
    chunk = zero ? ZERO_CHUNK : sizeof(small);
    if (!zero)
        zero = small;
    for (size_t off = 0; off < n; off += chunk)
        dev.mem->copy_to_device((char *)ptr + off, zero, n - off < chunk ? n - off : chunk);
}

static void publish(const char *fn)
{
    gsi_status_t status = dev.mem->publish(&dev.state);

    if (status != GSI_OK)
        gsi_fatal(fn, "cannot publish the device state (%s memory): %s", dev.mem->name,
                  gsi_status_str(status));
}

/* ---- teams ------------------------------------------------------------------ */

/* A slot's publication word (gsd_team_t.n_pes), in device-visible memory.
 * Host memory takes a release store; without one (a GPU) the word is its
 * own copy, issued after the body's copy has completed (copy_to_device
 * waits), which orders them the same way. */
static void store_n_pes(int32_t *word, int32_t n)
{
    if (dev.mem->store32_release)
        dev.mem->store32_release((uint32_t *)(void *)word, (uint32_t)n);
    else
        dev.mem->copy_to_device(word, &n, sizeof(n));
}

/* Slot `slot` of the device team table <- *t, or empty when t is NULL.
 * n_pes goes to 0 first, so a reader that finds the slot live reads a
 * whole body; no other slot's words are touched. */
static void write_slot(int slot, const gsd_team_t *t)
{
    gsd_team_t *to = &dev.state.team[slot];

    store_n_pes(&to->n_pes, 0);
    if (!t || t->n_pes <= 0)
        return;
    dev.mem->copy_to_device(to, t, offsetof(gsd_team_t, n_pes));
    store_n_pes(&to->n_pes, t->n_pes);
}

static void clear_team(int slot)
{
    write_slot(slot, NULL);
}

static void set_team(const char *fn, int slot, const struct gshmem_team *team)
{
    gsd_team_t body, *t = &body;

    clear_team(slot);
    memset(t, 0, sizeof(*t));
    t->my_pe = team->my_pe;
    t->n_pes = team->n_pes;
    t->start = team->strided ? team->start : 0;
    t->stride = team->strided ? team->stride : 0;
    t->pes = NULL;
    if (!team->strided && team->n_pes > 0) {
        size_t bytes = (size_t)team->n_pes * sizeof(int32_t);
        int32_t *pes = malloc(bytes), *to = dev.team_pes + (size_t)slot * (size_t)gsi_pe.n_pes;

        if (!pes)
            gsi_fatal(fn, "out of memory for a team of %d PEs", team->n_pes);
        for (int i = 0; i < team->n_pes; i++)
            pes[i] = team->pes[i];
        /* The slot was cleared first: no kernel reads these words now. */
        dev.mem->copy_to_device(to, pes, bytes);
        free(pes);
        t->pes = to;
    }
    write_slot(slot, t);
}

void gsi_device_team_update(int slot, const struct gshmem_team *team)
{
    const char *fn = "gshmem team";

    if (!dev.mem || slot < 0 || slot >= GSD_MAX_TEAMS)
        return;
    pthread_mutex_lock(&dev.lock);
    if (team) {
        set_team(fn, slot, team);
    } else {
        clear_team(slot);
        /* The next team in this slot starts its device counters at zero
         * (the host destroy's barrier has ended every use of them). */
        if (dev.state.sync)
            gsi_device_memzero(&dev.state.sync->team[slot], sizeof(gsd_team_sync_t));
    }
    /* Nothing else to publish: the slot is device code's copy. */
    pthread_mutex_unlock(&dev.lock);
}

/* ---- the device heap -------------------------------------------------------- */

void *gsi_device_heap_alloc(const char *fn, size_t size, size_t align)
{
    return dev.mem ? dev.mem->heap_alloc(fn, size, align) : NULL;
}

gsi_status_t gsi_device_heap_free(void *ptr)
{
    return dev.mem ? dev.mem->heap_free(ptr) : GSI_ERR_INVALID;
}

long long gsi_device_heap_offset(const void *ptr)
{
    uint64_t off = (uint64_t)(uintptr_t)ptr - dev.state.heap_base;

    return dev.mem && off < dev.state.heap_size ? (long long)off : -1;
}

/* ---- the device heap as a symmetric region of the host API -------------------- */

/* On host lanes the device heap is the host heap (region 0), which host RMA
 * knows already.  A GPU's is its own region, added here with the index the
 * transport registered it under (map_region), so host shmem_put/get/p/g
 * on gshmem_malloc memory reach node peers through their mapping with the
 * backend's copy (cuMemcpy: the CPU cannot load or store it), remote ones
 * through the network, and host atomics on it end the job with one line
 * (core/rma.h).  Its user part is all of it: the device collectives' sync
 * area lies at its start, so a user put can still reach it.  Compiled, not
 * run (no GPU where it was written). */
static void add_heap_region(const char *fn)
{
    const gsd_state_t *s = &dev.state;
    size_t bytes = (size_t)gsi_pe.n_pes * sizeof(uintptr_t);
    gsi_region_t reg;

    _Static_assert(sizeof(uintptr_t) == sizeof(uint64_t), "peer_base holds addresses");
    if (s->heap_region == GSI_REGION_HEAP)
        return;
    dev.no_peer = calloc(1, bytes);
    dev.dev_peer = calloc(1, bytes);
    if (!dev.no_peer || !dev.dev_peer)
        gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_pes);
    dev.mem->copy(dev.dev_peer, s->peer_base, bytes); /* device -> host */
    memset(&reg, 0, sizeof(reg));
    reg.base = (uintptr_t)s->heap_base;
    reg.size = reg.user_size = (size_t)s->heap_size;
    reg.peer = dev.no_peer;
    reg.fd = -1;
    reg.copy = dev.mem->copy;
    reg.dev_peer = dev.dev_peer;
    if (gsi_region_add(s->heap_region, &reg) != GSI_OK)
        gsi_fatal(fn, "the device heap cannot be region %d of %d", s->heap_region,
                  gsi_pe.n_regions);
    dev.region = s->heap_region;
}

void *gsi_device_heap_peer(const void *ptr, int pe)
{
    long long off = gsi_device_heap_offset(ptr);
    uintptr_t base;

    if (off < 0 || pe < 0 || pe >= gsi_pe.n_pes)
        return NULL;
    if (dev.region >= 0)
        base = dev.dev_peer[pe];
    else /* host lanes: the host heap's mapping */
        base = gsi_pe.region[dev.state.heap_region].peer[pe];
    return base ? (void *)(base + (uintptr_t)off) : NULL;
}

static void remove_heap_region(void)
{
    if (dev.region >= 0)
        gsi_region_remove(dev.region);
    dev.region = -1;
    free(dev.no_peer);
    free(dev.dev_peer);
    dev.no_peer = dev.dev_peer = NULL;
}

/* ---- registered symmetric buffers ------------------------------------------- */

/* Mirror a registered buffer into slot `slot` of the device table (core/
 * symreg.c calls it; base NULL removes), so device RMA reaches it: size
 * last, with release, as gsd_xreg_peer reads it with acquire first.  Host
 * lanes only (the table exists there alone): a GPU kernel cannot load or
 * store these host pages.  The core's peer[] stays alive while the slot
 * holds it (the core removes the slot first). */
static void xreg_update(int slot, int region, const void *base, size_t size, const uintptr_t *peer)
{
    gsd_xreg_t *x = dev.state.xreg;

    _Static_assert(GSD_MAX_XREG == GSI_SYMREG_MAX, "a device slot per registered buffer");
    if (!x || slot < 0 || slot >= GSD_MAX_XREG)
        return;
    __atomic_store_n(&x[slot].size, 0, __ATOMIC_RELEASE);
    if (!base)
        return;
    x[slot].base = (uint64_t)(uintptr_t)base;
    x[slot].peer_base = (const uint64_t *)peer;
    x[slot].region = region;
    __atomic_store_n(&x[slot].size, (uint64_t)size, __ATOMIC_RELEASE);
}

/* ---- init and finalize ------------------------------------------------------ */

void gsi_device_init(const char *fn)
{
    const gsi_devmem_ops_t *mem = choose_mem();
    gsd_state_t *s = &dev.state;
    gsi_status_t status;

    memset(s, 0, sizeof(*s));
    status = mem->init(fn);
    if (status != GSI_OK)
        gsi_fatal(fn, "device memory (%s): %s", mem->name, gsi_status_str(status));
    dev.mem = mem;
    /* A GPU's kernels run unseen beside the host's waits and may release
     * them: failure propagation must never take such a PE for stuck. */
    if (mem != &gsi_devmem_host)
        __atomic_add_fetch(&gsi_pe.live_busy, 1, __ATOMIC_RELEASE);
    s->my_pe = gsi_pe.my_pe;
    s->n_pes = gsi_pe.n_pes;
    status = mem->heap_info(s);
    if (status != GSI_OK)
        gsi_fatal(fn, "device heap (%s): %s", mem->name, gsi_status_str(status));
    s->wait_timeout_ns = (uint64_t)gsi_pe.env.device_wait_timeout * 1000000000ull;
    gsi_proxy_init(fn, mem, s);
    gsi_caps_check_device(fn, mem); /* before the first growth registers the heap */
    s->sync = mem->sync_area(fn);
    if (!s->sync)
        gsi_fatal(fn,
                  "no room for the device collectives' %zu-byte sync area in the %s heap "
                  "of %llu bytes (GSHMEM_DEVICE_HEAP_SIZE)",
                  sizeof(gsd_sync_t), mem->name, (unsigned long long)s->heap_size);
    add_heap_region(fn);
    s->team = mem->alloc_device(GSD_MAX_TEAMS * sizeof(gsd_team_t)); /* zeroed: no team */
    if (!s->team)
        gsi_fatal(fn, "out of %s memory for the device team table", mem->name);
    dev.team_pes = mem->alloc_device((size_t)GSD_MAX_TEAMS * (size_t)gsi_pe.n_pes *
                                     sizeof(int32_t));
    if (!dev.team_pes)
        gsi_fatal(fn, "out of %s memory for the device teams' member lists", mem->name);
    dev.exit_req = mem->alloc_mapped(sizeof(uint64_t), (void **)&s->exit_req); /* zeroed */
    if (!dev.exit_req)
        gsi_fatal(fn, "out of %s memory for the device global exit's word", mem->name);
    if (s->heap_region == GSI_REGION_HEAP) { /* host lanes: the table of registered buffers */
        s->xreg = calloc(GSD_MAX_XREG, sizeof(gsd_xreg_t));
        if (!s->xreg)
            gsi_fatal(fn, "out of memory for the registered buffers' table");
    }
    set_team(fn, gshmem_team_world.slot, &gshmem_team_world);
    set_team(fn, gshmem_team_shared.slot, &gshmem_team_shared);
    set_team(fn, gshmem_team_node.slot, &gshmem_team_node);
    publish(fn);
    gsi_team_observer = gsi_device_team_update; /* teams made from now on */
    gsi_symreg_observer = xreg_update;
    /* No peer writes into this PE's sync area before it is zeroed. */
    gsi_barrier_world(fn, 0);
    gsi_watch_start(fn, dev.exit_req); /* a GPU: a trapped kernel ends the job (watch.h) */
    GSI_DEBUG("device API: %s memory, heap %llu bytes at %#llx, %d proxy channels", mem->name,
              (unsigned long long)s->heap_size, (unsigned long long)s->heap_base, s->n_chan);
}

int gsi_device_exit_request(void)
{
    uint64_t req = dev.exit_req ? __atomic_load_n(dev.exit_req, __ATOMIC_ACQUIRE) : 0;

    return (req & GSD_EXIT_REQUESTED) ? (int)(uint32_t)req : -1;
}

void gsi_device_fini(const char *fn)
{
    gsd_team_t *team_table;
    gsd_xreg_t *xreg_table;

    if (!dev.mem)
        return;
    if (dev.mem->drain)
        dev.mem->drain(fn); /* the program's kernels run on the state zeroed below */
    gsi_team_observer = NULL;
    gsi_symreg_observer = NULL;
    remove_heap_region(); /* host RMA no longer reaches the device heap */
    if (dev.mem != &gsi_devmem_host)
        __atomic_sub_fetch(&gsi_pe.live_busy, 1, __ATOMIC_RELEASE);
    gsi_lanes_fini();
    /* Executes and completes what device code left in the channels. */
    gsi_proxy_fini();
    for (int slot = 0; slot < GSD_MAX_TEAMS; slot++)
        clear_team(slot);
    team_table = dev.state.team;
    xreg_table = dev.state.xreg;
    memset(&dev.state, 0, sizeof(dev.state));
    dev.mem->publish(&dev.state); /* loaded modules too: they see "not initialized" */
    gsi_device_modules_forget();
    gsi_watch_stop(); /* before the context goes */
    dev.mem->free_device(team_table);
    dev.mem->free_device(dev.team_pes);
    dev.team_pes = NULL;
    free(xreg_table);
    dev.mem->free_mapped(dev.exit_req);
    dev.exit_req = NULL;
    dev.mem->fini();
    dev.mem = NULL;
}
