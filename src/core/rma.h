/* src/core/rma.h - the core's one-sided primitives, used by host/ and by the
 * collectives: P2P load/store when the peer's region is mapped here,
 * the network transport otherwise.  Callers have checked initialization. */
#ifndef GSI_RMA_H
#define GSI_RMA_H

#include <stdint.h>
#include <string.h>

#include "base/copy.h"
#include "core/pe.h"
#include "net/transport.h"

typedef struct gsi_target {
    int region;
    size_t offset;
} gsi_target_t;

_Noreturn void gsi_fatal_net(const char *fn, gsi_status_t status, int pe) __attribute__((cold));

/* The address of `len` bytes at symmetric `addr` on `pe`, mapped in this
 * process, or NULL when the network must carry the access (*t says where).
 * `who` (GSI_FOR_USER or GSI_FOR_LIB, a constant) says how much of each
 * region the address may reach (src/core/pe.h). */
static inline void *gsi_target_for(const char *fn, const void *addr, size_t len, int pe,
                                   gsi_target_t *t, int who)
{
    size_t offset = 0;
    int r;
    uintptr_t base;

    gsi_check_pe(fn, pe);
    r = gsi_region_for(addr, len, &offset, who);
    if (__builtin_expect(r < 0, 0))
        gsi_fatal_addr(fn, addr, len, pe);
    base = gsi_pe.region[r].peer[pe];
    t->region = r;
    t->offset = offset;
    return base ? (void *)(base + offset) : NULL;
}

/* A node peer's copy of a device-memory region (gsi_region_t.copy), or
 * NULL: off the fast path, which found peer[pe] == 0. */
static inline char *gsi_device_target(const gsi_target_t *t, int pe)
{
    const gsi_region_t *reg = &gsi_pe.region[t->region];

    if (!reg->copy || !reg->dev_peer || !reg->dev_peer[pe])
        return NULL;
    return (char *)reg->dev_peer[pe] + t->offset;
}

static inline void gsi_put_for(const char *fn, void *dest, const void *src, size_t len, int pe,
                               int who)
{
    gsi_target_t t;
    void *p = gsi_target_for(fn, dest, len, pe, &t, who);
    gsi_status_t status;

    if (__builtin_expect(p != NULL, 1)) {
        gsi_copy(p, src, len);
        return;
    }
    p = gsi_device_target(&t, pe);
    if (p) {
        gsi_pe.region[t.region].copy(p, src, len);
        return;
    }
    status = gsi_pe.net->put(pe, t.region, t.offset, src, len);
    if (status != GSI_OK)
        gsi_fatal_net(fn, status, pe);
}

static inline void gsi_get_for(const char *fn, void *dest, const void *src, size_t len, int pe,
                               int who)
{
    gsi_target_t t;
    const void *p = gsi_target_for(fn, src, len, pe, &t, who);
    gsi_status_t status;

    if (__builtin_expect(p != NULL, 1)) {
        gsi_copy(dest, p, len);
        return;
    }
    p = gsi_device_target(&t, pe);
    if (p) {
        gsi_pe.region[t.region].copy(dest, p, len);
        return;
    }
    status = gsi_pe.net->get(dest, pe, t.region, t.offset, len);
    if (status != GSI_OK)
        gsi_fatal_net(fn, status, pe);
}

/* The user's RMA (host/): user memory only. */
static inline void *gsi_target(const char *fn, const void *addr, size_t len, int pe,
                               gsi_target_t *t)
{
    return gsi_target_for(fn, addr, len, pe, t, GSI_FOR_USER);
}

static inline void gsi_put(const char *fn, void *dest, const void *src, size_t len, int pe)
{
    gsi_put_for(fn, dest, src, len, pe, GSI_FOR_USER);
}

static inline void gsi_get(const char *fn, void *dest, const void *src, size_t len, int pe)
{
    gsi_get_for(fn, dest, src, len, pe, GSI_FOR_USER);
}

/* The library's own RMA (src/coll/: barriers, collectives): the sync area
 * too.  Collectives check the user's buffers with gsi_region_of first. */
static inline void *gsi_lib_target(const char *fn, const void *addr, size_t len, int pe,
                                   gsi_target_t *t)
{
    return gsi_target_for(fn, addr, len, pe, t, GSI_FOR_LIB);
}

static inline void gsi_lib_put(const char *fn, void *dest, const void *src, size_t len, int pe)
{
    gsi_put_for(fn, dest, src, len, pe, GSI_FOR_LIB);
}

static inline void gsi_lib_get(const char *fn, void *dest, const void *src, size_t len, int pe)
{
    gsi_get_for(fn, dest, src, len, pe, GSI_FOR_LIB);
}

_Noreturn void gsi_fatal_device_amo(const char *fn, int pe) __attribute__((cold));

/* A remote atomic on a 4- or 8-byte location through the network.  A node
 * peer's GPU memory is not there (it is mapped, not networked), and the
 * CPU cannot do atomics on it: that ends the job with one line. */
static inline void gsi_net_amo(const char *fn, const gsi_target_t *t, int pe, gst_amo_op_t op,
                               size_t size, const void *operand, const void *compare, void *fetched)
{
    gsi_status_t status;

    if (__builtin_expect(gsi_device_target(t, pe) != NULL, 0))
        gsi_fatal_device_amo(fn, pe);
    status = gsi_pe.net->amo(pe, t->region, t->offset, op, size, operand, compare, fetched);
    if (status != GSI_OK)
        gsi_fatal_net(fn, status, pe);
}

/* Where an atomic on [addr, addr + len) of `pe` may be a CPU atomic: the
 * mapped address, or NULL when the network must do it (*t says where):
 * the peer is not mapped, or the network's atomics are not atomic with the
 * CPU's (gsi_pe.amo_via_net), when it does every one, this PE's own too. */
static inline void *gsi_amo_target_for(const char *fn, const void *addr, size_t len, int pe,
                                       gsi_target_t *t, int who)
{
    void *p = gsi_target_for(fn, addr, len, pe, t, who);

    return __builtin_expect(gsi_pe.amo_via_net, 0) ? NULL : p;
}

static inline void *gsi_amo_target(const char *fn, const void *addr, size_t len, int pe,
                                   gsi_target_t *t)
{
    return gsi_amo_target_for(fn, addr, len, pe, t, GSI_FOR_USER);
}

/* Store a 64-bit word on `pe` with release order (signals, barrier flags).
 * A user's signal word may also take other PEs' adds, so its store is an
 * atomic (gsi_amo_target_for); the library's own stored words have one
 * writer and take no adds (src/coll/coll_sig.h), so a mapped one is stored
 * directly. */
static inline void gsi_store64_for(const char *fn, uint64_t *addr, uint64_t value, int pe, int who)
{
    gsi_target_t t;
    uint64_t *p = who == GSI_FOR_USER ? gsi_amo_target_for(fn, addr, sizeof(*p), pe, &t, who)
                                      : gsi_target_for(fn, addr, sizeof(*p), pe, &t, who);

    if (__builtin_expect(p != NULL, 1))
        __atomic_store_n(p, value, __ATOMIC_RELEASE);
    else
        gsi_net_amo(fn, &t, pe, GST_AMO_SET, sizeof(value), &value, NULL, NULL);
}

static inline void gsi_add64_for(const char *fn, uint64_t *addr, uint64_t value, int pe, int who)
{
    gsi_target_t t;
    uint64_t *p = gsi_amo_target_for(fn, addr, sizeof(*p), pe, &t, who);

    if (__builtin_expect(p != NULL, 1))
        __atomic_fetch_add(p, value, __ATOMIC_RELEASE);
    else
        gsi_net_amo(fn, &t, pe, GST_AMO_FADD, sizeof(value), &value, NULL, NULL);
}

static inline void gsi_store64(const char *fn, uint64_t *addr, uint64_t value, int pe)
{
    gsi_store64_for(fn, addr, value, pe, GSI_FOR_USER);
}

static inline void gsi_add64(const char *fn, uint64_t *addr, uint64_t value, int pe)
{
    gsi_add64_for(fn, addr, value, pe, GSI_FOR_USER);
}

static inline void gsi_lib_store64(const char *fn, uint64_t *addr, uint64_t value, int pe)
{
    gsi_store64_for(fn, addr, value, pe, GSI_FOR_LIB);
}

static inline void gsi_lib_add64(const char *fn, uint64_t *addr, uint64_t value, int pe)
{
    gsi_add64_for(fn, addr, value, pe, GSI_FOR_LIB);
}

/* Order puts to each PE before later puts to it. */
static inline void gsi_fence(const char *fn)
{
    gsi_status_t status;

    __atomic_thread_fence(__ATOMIC_RELEASE);
    status = gsi_pe.net->fence();
    if (status != GSI_OK)
        gsi_fatal_net(fn, status, -1);
}

/* Complete every put, AMO and get issued so far by this PE. */
static inline void gsi_quiet(const char *fn)
{
    gsi_status_t status;

    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    status = gsi_pe.net->quiet();
    if (status != GSI_OK)
        gsi_fatal_net(fn, status, -1);
}

#endif
