/*
 * gsd/order.h - ordering and completion.
 *
 *   gshmem_quiet()        every operation this PE issued before it is
 *                         complete: each proxy channel's quiet, then
 *                         fence.sc.sys (load/store puts are then visible,
 *                         and ordered before later loads too)
 *   gshmem_fence()        operations to each PE before it are delivered
 *                         before those after it: fence.acq_rel.sys (load/
 *                         store puts before later stores and AMOs; a fence
 *                         promises no store -> load order, so not .sc), and
 *                         an in-band FENCE descriptor on the caller's
 *                         default channel when some peer is reached by the
 *                         proxy (its publication is a release store)
 *   gshmemx_quiet_ch(ch)  quiet of channel ch (and the system fence)
 *   gshmemx_fence_ch(ch)  fence of channel ch (and the system fence)
 *   gshmemx_flush(), gshmemx_flush_warp(), gshmemx_flush_block()
 *                         (NVSHMEM 3.8) the source buffers of the earlier
 *                         non-blocking puts may be reused: the data need
 *                         not be visible at the target yet.  A load/store
 *                         put has read its source when it returns; a proxy
 *                         put's source is read when the proxy runs the
 *                         descriptor, which its channel's completed count
 *                         tells: each channel's quiet without the system
 *                         fence.  (Puts of every thread of the PE, not only
 *                         the caller's: more than NVSHMEM promises.)  warp
 *                         and block: every thread calls, one waits.
 *                         gshmemx_flush is host code's too: nvcc's host
 *                         pass makes it the host API's shmem_quiet (which
 *                         completes the host's puts), host lanes run the
 *                         device code.
 *
 * Building blocks for the other device headers and the collectives:
 *   void gsd_quiet_all(void)   = gshmem_quiet
 *   void gsd_fence_all(void)   = gshmem_fence
 * Neither touches a channel in a job without proxy peers (n_chan may be 0).
 */
#ifndef GSD_ORDER_H
#define GSD_ORDER_H

#include "group.h"
#include "path.h"

#if defined(GSD_NVCC_HOST_PASS)
#include "shmem.h"
#endif

GSD_FN int gsd_have_proxy(void)
{
    return (GSD_STATE.flags & GSD_HAVE_PROXY) != 0 && GSD_STATE.n_chan > 0;
}

/* Every channel's descriptors done by the proxy (gshmemx_flush); no fence. */
GSD_FN void gsd_flush_all(void)
{
    int c;

    if (gsd_have_proxy())
        for (c = 0; c < GSD_STATE.n_chan; c++)
            gsd_chan_quiet(&GSD_STATE.chan[c]);
}

GSD_FN void gsd_quiet_all(void)
{
    gsd_flush_all();
    gsd_fence(); /* .sc: load/store puts before every later access, loads too */
}

GSD_FN void gsd_fence_chan(gsd_channel_t *c)
{
    gsd_fence_acq_rel();
    if (c && gsd_have_proxy())
        gsd_push(c, GSD_OP_FENCE, 0, GSD_STATE.my_pe, 0, NULL, 0, 0, 0, GSD_NO_RET);
}

GSD_FN void gsd_fence_all(void)
{
    gsd_fence_chan(gsd_have_proxy() ? gsd_chan_default() : NULL);
}

GSD_FN void gshmem_quiet(void)
{
    gsd_quiet_all();
}
GSD_FN void gshmem_fence(void)
{
    gsd_fence_all();
}

/* Every thread's puts are in the channels' heads before one thread reads
 * them, and no thread goes on before the wait is over. */
GSD_FN void gsd_flush_group(int g)
{
    gsd_group_sync(g);
    if (gsd_group_rank(g) == 0)
        gsd_flush_all();
    gsd_group_sync(g);
}

GSD_HD void gshmemx_flush(void)
{
#if defined(GSD_NVCC_HOST_PASS)
    shmem_quiet();
#else
    gsd_flush_all();
#endif
}
GSD_FN void gshmemx_flush_warp(void)
{
    gsd_flush_group(GSD_WARP);
}
GSD_FN void gshmemx_flush_block(void)
{
    gsd_flush_group(GSD_BLOCK);
}

GSD_FN void gshmemx_quiet_ch(int ch)
{
    gsd_channel_t *c = gsd_chan_arg("gshmemx_quiet_ch", ch);

    if (c && gsd_have_proxy())
        gsd_chan_quiet(c);
    gsd_fence(); /* .sc, as in gsd_quiet_all */
}

GSD_FN void gshmemx_fence_ch(int ch)
{
    gsd_fence_chan(gsd_chan_arg("gshmemx_fence_ch", ch));
}

#endif /* GSD_ORDER_H */
