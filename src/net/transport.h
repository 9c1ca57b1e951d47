/* src/net/transport.h - the network transport, an ops table chosen at init.
 *
 * Peers on this node are reached by load/store through their mapped regions
 * (p2p.c); every other peer through these ops.  A symmetric location is named
 * by (region, offset), which the transport turns into its own remote key. */
#ifndef GST_TRANSPORT_H
#define GST_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

typedef enum gst_amo_op {
    GST_AMO_FETCH,
    GST_AMO_SET,
    GST_AMO_SWAP,
    GST_AMO_CSWAP,
    GST_AMO_FADD,
    GST_AMO_FAND,
    GST_AMO_FOR,
    GST_AMO_FXOR
} gst_amo_op_t;

typedef gsi_status_t (*gst_put_fn_t)(int pe, int region, size_t offset, const void *src,
                                     size_t len);
typedef gsi_status_t (*gst_get_fn_t)(void *dst, int pe, int region, size_t offset, size_t len);
/* size is 4 or 8; operand/compare/fetched point at values of that size. */
typedef gsi_status_t (*gst_amo_fn_t)(int pe, int region, size_t offset, gst_amo_op_t op,
                                     size_t size, const void *operand, const void *compare,
                                     void *fetched);
typedef gsi_status_t (*gst_order_fn_t)(void);
/* The non-blocking forms (see gst_ops_t): a p's value and a non-fetching
 * atomic's operand go by value, so the caller keeps nothing alive. */
typedef gsi_status_t (*gst_p_nbi_fn_t)(int pe, int region, size_t offset, uint64_t value,
                                       size_t len);
typedef gsi_status_t (*gst_amo_nbi_fn_t)(int pe, int region, size_t offset, gst_amo_op_t op,
                                         size_t size, uint64_t operand);
/* Returns nonzero when it found work (a peer's operation, a completion). */
typedef unsigned (*gst_progress_fn_t)(void);

/* What memory a region added after init is (the transport registers it
 * accordingly: UCX takes CUDA device memory as UCS_MEMORY_TYPE_CUDA). */
typedef enum gst_mem_type { GST_MEM_HOST, GST_MEM_CUDA } gst_mem_type_t;

/* A symmetric region added after init: the GPU device heap (src/gpu/cuda/cuda_heap.c),
 * whose memory is committed in chunks as it grows, or a buffer the program
 * registered as symmetric (src/core/symreg.c), in one chunk.  The region's registered
 * extent becomes [base, base + size) of this PE:
 *   - the first call for `region` registers it and learns every PE's base;
 *   - a later call with a larger size registers the bytes added only (those
 *     registered before keep their keys, so operations in flight on them
 *     are unaffected); base must be the same as before;
 * both collective: every PE calls with the same region and size, in the same
 * order (keys are exchanged through the bootstrap's allgather).
 *   - size 0 unregisters the region (local, not collective).
 * region is at least init's n_regions and below GST_MAX_REGIONS.  After it,
 * put/get/amo may name any offset below size; a put or get that crosses the
 * bytes of two calls is split. */
#define GST_MAX_REGIONS 12
typedef gsi_status_t (*gst_map_region_fn_t)(int region, void *base, size_t size,
                                            gst_mem_type_t mem_type, char *err, size_t errlen);

/* Local memory the program registers (gshmemx_buffer_register): the
 * transport registers [addr, addr + len) once, so its RMA uses that
 * registration for a local source or destination inside it instead of
 * registering (or bouncing through) the memory on each call.  The memory
 * kind is the transport's to detect (UCX finds CUDA memory itself).  *handle
 * gets what mem_dereg takes back; the caller keeps registrations from
 * overlapping.  Local, not collective.  NULL: the transport needs none. */
typedef gsi_status_t (*gst_mem_reg_fn_t)(void *addr, size_t len, void **handle, char *err,
                                         size_t errlen);
typedef void (*gst_mem_dereg_fn_t)(void *handle);

/* What a transport can do on memory of one kind (after init, the same
 * answer on every call): a mask of GST_CAP_*.  Where it lacks some, `why`
 * gets the transport's reason in a few words ("this UCX has no CUDA
 * support"), for the line that refuses the job (src/gpu/caps.c).  The
 * device heap's memory kind and its proxy peers are known only at device
 * init, which is why this is a query and not an init-time flag. */
#define GST_CAP_PUT 0x1u
#define GST_CAP_GET 0x2u
#define GST_CAP_AMO 0x4u /* the gst_amo_op_t operations, 4 and 8 bytes */
#define GST_CAP_ALL (GST_CAP_PUT | GST_CAP_GET | GST_CAP_AMO)
/* Its atomics are atomic with each other but not with CPU atomics on the
 * same word (an RDMA device whose atomic_cap is IBV_ATOMIC_HCA: the NIC
 * reads, modifies and writes memory under its own lock).  Such a transport
 * reaches every PE, this one and those mapped by load/store included, and
 * the core then sends every atomic through it, so that all atomics on a
 * word stay atomic with each other, as OpenSHMEM requires.  Asked of
 * GST_MEM_HOST only. */
#define GST_CAP_AMO_ALL_PES 0x8u
typedef unsigned (*gst_caps_fn_t)(gst_mem_type_t mem_type, char *why, size_t whylen);

/* What a transport is told at init.  It must not call back into the core:
 * exchanges go through `allgather` (the bootstrap's). */
typedef struct gst_init_args {
    int my_pe, n_pes;
    int n_regions;
    void *const *base;         /* [n_regions] this PE's symmetric regions */
    const size_t *size;        /* [n_regions] */
    const uint64_t *peer_base; /* [n_pes * n_regions] every PE's region bases */
    const char *net_peer;      /* [n_pes] 1: reached through this transport */
    /* 1: no PE maps these regions by load/store and some PE of this host is
     * reached through the transport, so the transport may move them onto
     * shared memory of its own, mapped at the same addresses here */
    int private_regions;
    int thread_multiple; /* calls may come from several threads at once */
    int progress_thread; /* -1 auto, 0 off, 1 on */
    int am_rma;          /* small operations as active messages: -1 where the
                                  transport has no RMA, 0 never, 1 always */
    int (*allgather)(const void *in, void *out, size_t len);
    const char *hca;  /* GSHMEM_HCA: the RDMA device[:port] ("auto": choose) */
    int wait_timeout; /* GSHMEM_WAIT_TIMEOUT: seconds a transport's own wait may
                         see no progress before it ends the job; 0: none */
    /* Where every PE's init regions are, for a transport that maps them
     * (node.c): [n_pes] 1: the PE runs on this host; [n_pes] its pid;
     * [n_pes * n_regions] the descriptor of each region's memfd in its
     * owner (src/base/memfd.h). */
    const char *same_host;
    const int *peer_pid;
    const int *peer_fd;
} gst_init_args_t;

typedef gsi_status_t (*gst_init_fn_t)(const gst_init_args_t *args, char *err, size_t errlen);
/* Collective over the PEs that use the transport, after shmem_finalize's
 * barrier: may exchange through `allgather` before it releases anything. */
typedef void (*gst_finalize_fn_t)(void);

typedef struct gst_ops {
    const char *name;
    gst_init_fn_t init;
    gst_finalize_fn_t finalize;
    /* Drive communication from a waiting caller (NULL: nothing to drive). */
    gst_progress_fn_t progress;
    gst_put_fn_t put;
    gst_get_fn_t get;
    gst_amo_fn_t amo;
    gst_order_fn_t fence;
    gst_order_fn_t quiet;
    /* Add or grow a region after init (see gst_map_region_fn_t); NULL: the
     * transport cannot (callers treat it as unsupported). */
    gst_map_region_fn_t map_region;
    /* What it can do on each kind of memory (see gst_caps_fn_t); NULL:
     * nothing (callers treat it as 0). */
    gst_caps_fn_t caps;
    /* Register and release local buffers (see gst_mem_reg_fn_t); NULL:
     * nothing to register. */
    gst_mem_reg_fn_t mem_reg;
    gst_mem_dereg_fn_t mem_dereg;
    /* Non-blocking issue, for the proxy (src/gpu/proxy.c), which executes
     * descriptors faster than it could wait for each.  An operation issued
     * here is complete only once the next quiet returns (put_nbi's src and
     * get_nbi's dst must stay put until then); fence orders these as it
     * does the blocking forms.  They may be held back and packed together
     * (UCX over TCP sends consecutive ones to one peer as one message)
     * until `post`, a fence, a quiet, or any blocking operation.  amo_nbi
     * takes the operations without a result and without a compare: SET,
     * FADD, FAND, FOR, FXOR.  NULL: use the blocking form. */
    gst_put_fn_t put_nbi;
    gst_get_fn_t get_nbi;
    gst_p_nbi_fn_t p_nbi;
    gst_amo_nbi_fn_t amo_nbi;
    /* Send on what the _nbi forms hold back, without waiting (NULL: they
     * hold nothing back).  The proxy calls it at the end of each pass, so
     * packing never delays a lone operation past its own pass. */
    gst_order_fn_t post;
} gst_ops_t;

/* No network transport: every remote operation is unsupported. */
extern const gst_ops_t gst_none_ops;

/* UCX (built when configure finds it): RDMA, shared memory or TCP. */
extern const gst_ops_t gst_ucx_ops;

/* verbs (built when configure finds libibverbs): RDMA through rdma-core
 * (src/net/verbs/). */
extern const gst_ops_t gst_verbs_ops;

/* node (always built): for jobs whose PEs all run on one host, every
 * peer's regions mapped into this process and operations done as copies
 * and CPU atomics on those mappings (src/net/node/). */
extern const gst_ops_t gst_node_ops;

#endif
