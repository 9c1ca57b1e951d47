/*
 * gsd/path.h - how device code reaches a peer (DESIGN.md "Per-peer paths"):
 * by load/store when the peer's device heap is mapped here (peer_base[pe]
 * != 0, and always for this PE itself), else through a proxy channel.
 *
 *   gsd_peer_addr(addr, off, pe)  the peer's copy of symmetric addr (whose
 *                                 heap offset is off), or NULL: via the proxy
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

/* op: GSD_OP_*; aux2: the AMO op or signal op; offsets in the device heap's
 * region.  Returns the descriptor's ticket. */
GSD_FN uint64_t gsd_push(gsd_channel_t *c, unsigned op, unsigned aux2, int pe, uint64_t offset,
                         const void *local, uint64_t len, uint64_t value, uint64_t aux,
                         uint64_t ret)
{
    gsd_desc_t d;
    unsigned region = (unsigned)GSD_STATE.heap_region;

    d.seq = 0;
    d.op = GSD_DESC_OP(op, region, region, aux2);
    d.pe = pe;
    d.offset = offset;
    d.local = (uint64_t)(uintptr_t)local;
    d.len = len;
    d.value = value;
    d.aux = aux;
    d.ret = ret;
    return gsd_chan_push(c, &d);
}

#endif /* GSD_PATH_H */
