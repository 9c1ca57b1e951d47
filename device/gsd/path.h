/*
 * gsd/path.h - how device code reaches a peer (DESIGN.md "Per-peer paths"):
 * by load/store when the peer's device heap is mapped here (peer_base[pe]
 * != 0, and always for this PE itself), else through a proxy channel.
 *
 *   gsd_peer_addr(addr, off, pe)  the peer's copy of symmetric addr (whose
 *                                 heap offset is off), or NULL: via the proxy
 *   gsd_sym_peer(fn, addr, len, pe, &off, &region)
 *                                 the same for an address of the heap or of
 *                                 a registered symmetric buffer (device RMA)
 *   gsd_chan_pick(fn, chan, pe)   chan, or the caller's default channel when
 *                                 chan is NULL; the job ends when there is
 *                                 no channel at all (a pure P2P job)
 *   gsd_chan_arg(fn, ch)          the channel a _ch extension names: NULL
 *                                 in a job without channels (then only 0 is
 *                                 a valid name, see gshmemx_n_channels)
 *   gsd_push(c, op, pe, ...)      one descriptor into channel c
 */
#ifndef GSD_PATH_H
#define GSD_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "fatal.h"
#include "proxy.h"

GSD_FN void *gsd_peer_addr(const void *addr, uint64_t off, int pe)
{
    uint64_t base;

    if (pe == GSD_STATE.my_pe)
        return (void *)(uintptr_t)addr;
    base = GSD_STATE.peer_base[pe];
    return base ? (void *)(uintptr_t)(base + off) : NULL;
}

/* The registered symmetric buffer that holds [addr, addr + len): 1 with
 * its offset, region and pe's mapping (*peer NULL: via the proxy), or 0. */
GSD_FN int gsd_xreg_find(const void *addr, uint64_t len, int pe, uint64_t *off, unsigned *region,
                         void **peer)
{
    const gsd_xreg_t *x = GSD_STATE.xreg;

    for (int i = 0; x && i < GSD_MAX_XREG; i++) {
        uint64_t size = gsd_load_acquire(&x[i].size);
        uint64_t o = (uint64_t)(uintptr_t)addr - x[i].base;
        uint64_t base;

        if (!size || o >= size || len > size - o)
            continue;
        *off = o;
        *region = (unsigned)x[i].region;
        base = pe == GSD_STATE.my_pe ? (uint64_t)(uintptr_t)addr - o : x[i].peer_base[pe];
        *peer = base ? (void *)(uintptr_t)(base + o) : NULL;
        return 1;
    }
    return 0;
}

/* gsd_xreg_find's answer, as gsd_sym_peer returns it; the job ends when no
 * slot holds the range (the heap's line: the heap is what most callers
 * meant). */
GSD_FN void *gsd_xreg_peer(const char *fn, const void *addr, uint64_t len, int pe, uint64_t *off,
                           unsigned *region)
{
    void *peer;

    if (gsd_xreg_find(addr, len, pe, off, region, &peer))
        return peer;
    GSD_FATAL(fn,
              "address %p (%llu bytes, PE %d) is not in the symmetric heap "
              "(gshmem_malloc) nor in a registered symmetric buffer",
              addr, (unsigned long long)len, pe);
    return NULL;
}

/* Where device RMA on symmetric [addr, addr + len) goes: the device heap
 * first (one compare), else a registered buffer.  *off and *region name it
 * in descriptors; the return is pe's copy mapped here, NULL: via the proxy. */
GSD_FN void *gsd_sym_peer(const char *fn, const void *addr, uint64_t len, int pe, uint64_t *off,
                          unsigned *region)
{
    uint64_t o = (uint64_t)(uintptr_t)addr - GSD_STATE.heap_base;

    if (GSD_LIKELY(o < GSD_STATE.heap_size && len <= GSD_STATE.heap_size - o)) {
        *off = o;
        *region = (unsigned)GSD_STATE.heap_region;
        return gsd_peer_addr(addr, o, pe);
    }
    return gsd_xreg_peer(fn, addr, len, pe, off, region);
}

GSD_FN gsd_channel_t *gsd_chan_pick(const char *fn, gsd_channel_t *chan, int pe)
{
    if (chan)
        return chan;
    if (GSD_UNLIKELY(GSD_STATE.n_chan <= 0))
        GSD_FATAL(fn, "PE %d is not reachable by load/store and there is no proxy channel", pe);
    return gsd_chan_default();
}

GSD_FN gsd_channel_t *gsd_chan_arg(const char *fn, int ch)
{
    if (GSD_STATE.n_chan > 0)
        return gsd_chan_at(fn, ch);
    if (GSD_UNLIKELY(ch != 0))
        GSD_FATAL(fn, "channel %d is out of range: gshmemx_n_channels() is 1 (no proxy channels)",
                  ch);
    return NULL;
}

/* The local symmetric [addr, addr + len) a wait or test reads: in the heap
 * or a registered buffer, else the job ends. */
GSD_FN void gsd_sym_check(const char *fn, const void *addr, uint64_t len)
{
    uint64_t off;
    unsigned region;

    (void)gsd_sym_peer(fn, addr, len, GSD_STATE.my_pe, &off, &region);
}

/* op: GSD_OP_*; aux2: the AMO op or signal op; offset in `region`, a
 * put-with-signal's signal offset (aux) in `sig_region`.  Returns the
 * descriptor's ticket. */
GSD_FN uint64_t gsd_push_sig(gsd_channel_t *c, unsigned op, unsigned region, unsigned sig_region,
                             unsigned aux2, int pe, uint64_t offset, const void *local,
                             uint64_t len, uint64_t value, uint64_t aux, uint64_t ret)
{
    gsd_desc_t d;

    d.seq = 0;
    d.op = GSD_DESC_OP(op, region, sig_region, aux2);
    d.pe = pe;
    d.offset = offset;
    d.local = (uint64_t)(uintptr_t)local;
    d.len = len;
    d.value = value;
    d.aux = aux;
    d.ret = ret;
    return gsd_chan_push(c, &d);
}

/* gsd_push_sig with everything in one region. */
GSD_FN uint64_t gsd_push_at(gsd_channel_t *c, unsigned op, unsigned region, unsigned aux2, int pe,
                            uint64_t offset, const void *local, uint64_t len, uint64_t value,
                            uint64_t aux, uint64_t ret)
{
    return gsd_push_sig(c, op, region, region, aux2, pe, offset, local, len, value, aux, ret);
}

/* gsd_push_at in the device heap's region. */
GSD_FN uint64_t gsd_push(gsd_channel_t *c, unsigned op, unsigned aux2, int pe, uint64_t offset,
                         const void *local, uint64_t len, uint64_t value, uint64_t aux,
                         uint64_t ret)
{
    return gsd_push_at(c, op, (unsigned)GSD_STATE.heap_region, aux2, pe, offset, local, len, value,
                       aux, ret);
}

#endif /* GSD_PATH_H */
