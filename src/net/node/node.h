/* src/net/node/node.h - what the layers above hand the node transport
 * (node.c) for device memory, which this layer cannot reach itself: the
 * GPU layer imports each node peer's device heap (src/gpu/cuda/cuda_heap.c,
 * the VMM import of cuda_ipc.c) and copies with the CUDA driver it
 * opened.  A hook filled from above, as gsi_pe's are: the transport never
 * includes an upper layer's header. */
#ifndef GST_NODE_H
#define GST_NODE_H

#include <stddef.h>

#include "base/status.h"
#include "net/transport.h"

typedef struct gst_node_dev {
    /* len bytes between two addresses of this process, either or both
     * device memory; may return before the bytes have landed. */
    gsi_status_t (*copy)(void *dst, const void *src, size_t len);
    /* Returns once every copy issued before it has landed. */
    gsi_status_t (*sync)(void);
    /* An atomic on the word at `at` (device memory mapped here), done by
     * this PE's GPU after the copies issued before it, complete when it
     * returns (fetched, when not NULL, gets the old value).  NULL where it
     * would not be atomic with the owner GPU's own atomics on the word;
     * no_amo then says why, in a few words. */
    gsi_status_t (*amo)(void *at, gst_amo_op_t op, size_t size, const void *operand,
                        const void *compare, void *fetched);
    const char *no_amo;
} gst_node_dev_t;

/* 1 when the job's transport is the node transport (after init). */
int gst_node_active(void);

/* Copy device memory with `dev` from now on (NULL: none; the table must
 * outlive the transport). */
void gst_node_set_dev(const gst_node_dev_t *dev);

/* PE `pe`'s copy of region `region` is mapped in this process at `addr`
 * for `size` bytes (device memory the layer above imported; it unmaps it
 * after the transport's finalize).  Local, before the map_region call
 * that registers those bytes. */
gsi_status_t gst_node_map_peer(int region, int pe, void *addr, size_t size);

#endif
