/* src/gpu/proxy.h - the consumer side of the device API's proxy channels
 * (device/gsd/channel.h has the protocol, gsd/proxy.h the producers):
 * host threads that execute the descriptors device code pushes, in order
 * per channel, through a transport (the core's network transport at run
 * time; the tests give a recording one). */
#ifndef GSI_PROXY_H
#define GSI_PROXY_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/devmem.h"
#include "gsd/channel.h"
#include "base/status.h"
#include "net/transport.h"

/* One channel, as the proxy holds it. */
typedef struct gsi_proxy_chan {
    gsd_channel_t host;  /* addresses the proxy uses */
    gsd_channel_t dev;   /* the same channel as device code addresses it */
    void *mapped;        /* allocations behind it (ring, counters, return slots) */
    void *device;        /* head, tail_cache, ret_head */
    uint64_t tail, done; /* consumer's own copies of *tail and *done */
    uint64_t executed;   /* descriptors executed (statistics) */
    int unquiet;         /* issued something since its last transport quiet */
    int unflushed;       /* a get wrote the lanes' memory since the last flush */
    int wakeable;        /* producers are host threads: host.wake / dev.wake may be set */
    int index;
} gsi_proxy_chan_t;

/* Allocate a channel of `size` descriptors and `n_ret` return slots (powers
 * of two) from `mem`: ring, tail, done, quiet_req, quiet_host, ret mapped; head,
 * tail_cache, ret_head device memory. */
gsi_status_t gsi_proxy_chan_create(const gsi_devmem_ops_t *mem, uint32_t size, uint32_t n_ret,
                                   int index, gsi_proxy_chan_t *ch);
void gsi_proxy_chan_destroy(const gsi_devmem_ops_t *mem, gsi_proxy_chan_t *ch);

/* One pass over one channel by its consumer: execute up to `max`
 * descriptors that are ready, in ticket order, through `net`; publish tail;
 * answer a pending quiet.  Returns the number executed.  A transport error
 * ends the job with one line naming the target PE. */
size_t gsi_proxy_poll(gsi_proxy_chan_t *ch, const gst_ops_t *net, size_t max);

/* What a quiet calls after gets into the lanes' memory, before it reports
 * them done: the flush of GPUDirect RDMA writes (gsi_cuda_flush_remote_
 * writes).  Only then: a quiet after puts alone does not flush.  A
 * variable so that tests/unit/ring.c counts the calls. */
extern void (*gsi_proxy_flush)(void);

/* From any thread but the channel's consumer: wait until the consumer has
 * executed and completed every descriptor published so far (the frontier
 * is read from the ring, as the host does not see the producers' head). */
void gsi_proxy_chan_drain(gsi_proxy_chan_t *ch, const char *fn);

/* Consumer threads: thread k of n_threads serves channels k, k + n, ...
 * The channels must outlive the group.  Stopping executes what is already
 * published, completes it (net->quiet) and joins the threads. */
typedef struct gsi_proxy_group gsi_proxy_group_t;

gsi_status_t gsi_proxy_group_start(gsi_proxy_chan_t *chans, int n_chan, int n_threads,
                                   const gst_ops_t *net, gsi_proxy_group_t **out);
void gsi_proxy_group_stop(gsi_proxy_group_t *group);

/* The runtime's channels (src/gpu/device.c): when some peer is reached
 * through the network, GSHMEM_PROXY_CHANNELS channels of GSHMEM_PROXY_RING
 * descriptors and GSHMEM_PROXY_THREADS threads over gsi_pe.net; fills
 * s->chan, s->n_chan (0: no proxy) and GSD_HAVE_PROXY in s->flags. */
void gsi_proxy_init(const char *fn, const gsi_devmem_ops_t *mem, gsd_state_t *s);
void gsi_proxy_fini(void);

#endif
