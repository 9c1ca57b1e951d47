/* src/core/pe.h - the state of this PE and the fast address translation.
 *
 * A symmetric address lies in one of this PE's symmetric regions (the heap,
 * the program's static data).  Its image on PE `pe` is at the same offset in
 * that PE's region, which this process has mapped when `pe` shares the node
 * (P2P) or reaches through the network transport otherwise. */
#ifndef GSI_PE_H
#define GSI_PE_H

#include <stddef.h>
#include <stdint.h>

#include "base/env.h"

/* The OpenSHMEM thread levels, as the core keeps them (shmem.h's values). */
enum { SHMEM_THREAD_LEVEL_SINGLE = 0, SHMEM_THREAD_LEVEL_MULTIPLE = 3 };
#include "base/status.h"

struct gsb_ops;
struct gst_ops;

/* GSI_REGION_DEVICE: the device heap on a GPU, added by the gpu layer
 * after init (gsi_region_add; on host lanes the device heap is the host
 * heap itself).  Its index is the one the transport knows it by
 * (map_region). */
/* GSI_REGION_SYMREG..: buffers the program registered as symmetric
 * (gshmemx_buffer_register_symmetric, core/symreg.c), at most
 * GSI_SYMREG_MAX at a time. */
enum { GSI_SYMREG_MAX = 8 };
enum {
    GSI_REGION_HEAP = 0,
    GSI_REGION_DATA = 1,
    GSI_REGION_DEVICE = 2,
    GSI_REGION_SYMREG = 3,
    GSI_REGION_MAX = GSI_REGION_SYMREG + GSI_SYMREG_MAX
};

/* Copies bytes where one side may be device memory (cuMemcpy). */
typedef void (*gsi_region_copy_fn_t)(void *dst, const void *src, size_t len);

typedef struct gsi_region {
    uintptr_t base; /* this PE's copy */
    /* The first user_size bytes are what user RMA may reach: the heap's
     * allocations, not the library's sync area after them (a user put
     * there breaks barriers); all of the static data.  Next to base: the
     * user's lookups read the two together. */
    size_t user_size;
    size_t size;     /* all of it: what the library's own RMA reaches, what is mapped */
    uintptr_t *peer; /* [n_pes]: peer's copy mapped in this process; 0: not P2P */
    int fd;          /* the memfd behind it (shared with node peers) */
    /* Memory the CPU cannot load or store (a GPU's device heap): peer[] is
     * all 0 there, so every access misses the load/store fast path and
     * no caller dereferences it; the slow path (core/rma.h) reaches a
     * node peer's copy, mapped here at dev_peer[pe] (0: not mapped), with
     * `copy`, and the others through the network.  NULL for host memory. */
    gsi_region_copy_fn_t copy;
    uintptr_t *dev_peer; /* [n_pes] */
} gsi_region_t;

typedef struct gsi_pe_state {
    int init_count; /* shmem_init calls not yet matched by shmem_finalize */
    /* How far init has come, for gshmemx_init_status (read by any thread):
     * 0 not started or finalized, 1 bootstrap up, 2 initialized. */
    int stage;
    int my_pe; /* -1 before the bootstrap is up */
    int n_pes;
    int thread_level;
    unsigned spin; /* polls before a wait yields */
    int n_regions;
    gsi_region_t region[GSI_REGION_MAX];
    int n_local;    /* PEs sharing this node (P2P), this one included */
    int n_cores;    /* CPUs online on this node */
    int *local_pes; /* [n_local] world PEs of the node, ascending */
    int n_node;     /* PEs on this host, mapped or not (GSHMEM_DISABLE_P2P) */
    int *node_pes;  /* [n_node] their world PEs, ascending */
    int *pid;       /* [n_pes] each PE's process id, from the init cards (only
                                those of this host's PEs name a process here) */
    const struct gsb_ops *boot;
    const struct gst_ops *net;
    unsigned (*net_progress)(void); /* drives the network from waits; NULL: none */
    /* 1: the network's atomics are not atomic with the CPU's (RDMA atomics
     * without IBV_ATOMIC_GLOB), so every atomic, to this PE and to mapped
     * peers too, goes through it (gsi_amo_target_for in src/core/rma.h) */
    int amo_via_net;
    /* completes what device code queued in the proxy channels so far
     * (src/gpu/proxy.c); NULL: no proxy */
    void (*device_drain)(const char *fn);
    /* Work beside this PE's waits that may still release them, so that
     * failure propagation (core/liveness.c) never takes the PE for stuck:
     * host-lane kernels running now (src/gpu/lanes.c; a GPU's context
     * counts as one for as long as it is up: its kernels are not seen),
     * and descriptors the proxy threads executed, ever (src/gpu/proxy.c). */
    int live_busy;
    unsigned long live_activity;
    struct gsi_sync *sync; /* library-internal symmetric area at the heap start */
    gsi_env_t env;
} gsi_pe_t;

extern gsi_pe_t gsi_pe;

/* Who asks for an address: the user's calls reach a region's user part
 * only, the library's own RMA (barriers, collectives) all of it. */
enum { GSI_FOR_USER = 0, GSI_FOR_LIB = 1 };

/* Region index and offset of [addr, addr + len) for `who`; -1 if nowhere.
 * `who` is a constant at every call, so the compiler keeps one compare per
 * region and no branch on it. */
static inline int gsi_region_for(const void *addr, size_t len, size_t *offset, int who)
{
    uintptr_t a = (uintptr_t)addr;

    for (int r = 0; r < gsi_pe.n_regions; r++) {
        uintptr_t off = a - gsi_pe.region[r].base;
        size_t size = who == GSI_FOR_LIB ? gsi_pe.region[r].size : gsi_pe.region[r].user_size;

        if (off < size) {
            if (len > size - off)
                return -1;
            *offset = off;
            return r;
        }
    }
    return -1;
}

/* Where a symmetric address of the user's lives: region index and offset;
 * -1 if nowhere (library-internal memory included). */
static inline int gsi_region_of(const void *addr, size_t len, size_t *offset)
{
    return gsi_region_for(addr, len, offset, GSI_FOR_USER);
}

/* Add region r after init (the device heap on a GPU, a registered
 * symmetric buffer): *reg is copied, its arrays stay the caller's.  Empty
 * slots below r stay empty (no address is in them).  GSI_ERR_INVALID when
 * r is taken or out of range.  One caller at a time; lookups by other
 * threads may run meanwhile: the sizes are stored last, with release, so
 * a lookup sees the slot empty or whole. */
gsi_status_t gsi_region_add(int r, const gsi_region_t *reg);
/* Undo gsi_region_add (finalize, before the peers are disconnected). */
void gsi_region_remove(int r);

/* End the job with `status` on every PE. */
_Noreturn void gsi_global_exit(int status);

/* Cold paths of the argument checks: one line, then the job ends. */
_Noreturn void gsi_fatal_uninit(const char *fn) __attribute__((cold));
_Noreturn void gsi_fatal_pe(const char *fn, int pe) __attribute__((cold));
_Noreturn void gsi_fatal_addr(const char *fn, const void *addr, size_t len, int pe)
    __attribute__((cold));
_Noreturn void gsi_fatal_arg(const char *fn, const char *arg, const void *addr, size_t len)
    __attribute__((cold));
_Noreturn void gsi_fatal_null(const char *fn, const char *what, size_t len) __attribute__((cold));
_Noreturn void gsi_fatal_device_arg(const char *fn, const char *arg, const void *addr, size_t len)
    __attribute__((cold));

static inline void gsi_check_init(const char *fn)
{
    if (__builtin_expect(gsi_pe.init_count <= 0, 0))
        gsi_fatal_uninit(fn);
}

static inline void gsi_check_pe(const char *fn, int pe)
{
    if (__builtin_expect((unsigned)pe >= (unsigned)gsi_pe.n_pes, 0))
        gsi_fatal_pe(fn, pe);
}

/* A symmetric argument `arg` (its name, for the report) of `len` bytes at
 * `addr`, as a collective touches it on this PE: it must lie wholly in one
 * symmetric region's user part (gsi_region_of: not the heap's tail from
 * gsi_pe.sync on, which holds the library's own words; a collective that
 * ran into it would corrupt the teams' barriers).  The
 * same check on every PE checks the other PEs' copies too: the regions have
 * the same size everywhere.  Nothing to check when len is 0. */
static inline void gsi_check_symmetric(const char *fn, const char *arg, const void *addr,
                                       size_t len)
{
    size_t offset = 0;
    int r;

    if (!len)
        return;
    /* The user's part of each region only: not the library's sync area. */
    r = gsi_region_of(addr, len, &offset);
    if (__builtin_expect(r < 0, 0))
        gsi_fatal_arg(fn, arg, addr, len);
    /* The collectives copy with the CPU: not GPU memory. */
    if (__builtin_expect(gsi_pe.region[r].copy != NULL, 0))
        gsi_fatal_device_arg(fn, arg, addr, len);
}

/* A local buffer the call reads or writes (`what`: its argument's name):
 * NULL with bytes to move is misuse, which would otherwise crash inside
 * memcpy or the transport.  A zero-length transfer touches no buffer, and
 * the specification does not forbid one, so NULL is fine there. */
static inline void gsi_check_local(const char *fn, const char *what, const void *buf, size_t len)
{
    if (__builtin_expect(!buf && len, 0))
        gsi_fatal_null(fn, what, len);
}

#endif
