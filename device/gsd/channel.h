/*
 * gsd/channel.h - the proxy channel shared by device producers and the host
 * proxy thread (src/gpu/proxy.c): a ring of fixed-size descriptors, written by
 * any lane, drained in order by one proxy thread (DESIGN.md "Device → proxy
 * queue").  Structs only: the producer side is gsd/proxy.h.
 *
 * Protocol, per channel:
 *   reserve   t = fetch_add(head, 1); wait until t - tail < size (credit;
 *             tail_cache keeps the last tail seen so most reservations do
 *             not read the consumer's word)
 *   publish   fill ring[t & mask], then store seq = t + 1 with release:
 *             the proxy reads a slot only once its seq says this lap, so a
 *             zero-valued descriptor is legal and there is no commit index
 *   consume   the proxy executes ring[tail & mask] when its seq == tail + 1,
 *             then publishes tail (release) - the slot's credit
 *   quiet     q = head; max(quiet_req, q); wait until done >= q.  The proxy
 *             completes everything it issued (transport quiet) once
 *             tail >= max(quiet_req, quiet_host), then publishes done = tail.
 *             A host thread's drain (gsi_proxy_chan_drain) asks through
 *             quiet_host, never through quiet_req: see "Who writes which
 *             word" below
 *   fence     an in-band descriptor: the proxy orders the transport there
 *   sleep     (host lanes only: wake != NULL) a consumer that found nothing
 *             for a while stores *wake = 1, looks at its channels once
 *             more, and sleeps on the word (futex); a lane that publishes,
 *             or asks a quiet, then reads *wake and, seeing 1, clears it
 *             and wakes the consumer.  The store of 1, the second look, the
 *             publish and the read are sequentially consistent, so either
 *             the second look sees the descriptor or the lane sees the 1.
 *             GPU threads cannot wake a host thread (wake is NULL): their
 *             consumer polls, with naps (src/gpu/proxy.c)
 *   fetch     g and fetching AMOs take a return slot r = fetch_add(ret_head,
 *             1) in ret[r % n_ret], wait until its seq == 2r (free), issue
 *             the descriptor with ret = r; the proxy writes value, then
 *             seq = 2r + 1; the lane reads value and frees the slot for the
 *             next lap with seq = 2(r + n_ret)
 *
 * Who writes which word.  On a GPU the mapped words are pinned host memory
 * reached over PCIe, where hostNativeAtomicSupported is 0: a CPU atomic and
 * a GPU atomic on the same word are not atomic with respect to each other.
 * So no word is the target of read-modify-writes from both sides; a word
 * both sides store to (ret[].seq) is handed over by the protocol, each store
 * made only after the other side's last one was seen (acquire), so the two
 * never race.  "lanes" are the producers (GPU threads, or host lanes / test
 * threads through the same code); "proxy" is the channel's consumer thread;
 * "drain" is any other host thread in gsi_proxy_chan_drain.
 *
 *   word        lives in      written by: operation         read by
 *   ring[].seq  mapped        lanes: st.release (publish)   proxy: acquire;
 *                                                           drain: acquire
 *   ring[] rest mapped        lanes: plain stores           proxy (after seq)
 *   head        device        lanes: atomic add (ticket)    lanes (quiet: acquire)
 *   tail_cache  device        lanes: atomic max             lanes: acquire
 *   tail        mapped        proxy: store release          lanes: acquire;
 *                                                           drain: acquire
 *   done        mapped        proxy: store release          lanes, drain: acquire
 *   quiet_req   mapped        lanes: atomic max (GPU atomic proxy: acquire
 *                             among GPU threads only)
 *   quiet_host  mapped        drain: CAS max (CPU atomics   proxy: acquire
 *                             among host threads only)
 *   ret[].value mapped        proxy: plain store            lanes (after seq)
 *   ret[].seq   mapped        proxy: st.release 2r+1;       lanes: acquire
 *                             lanes: st.release 2(r+n_ret)
 *                             (alternating, never racing)
 *   ret_head    device        lanes: atomic add (ticket)    -
 *   *wake       host          proxy: store 1, then 0;       lanes, drain: load
 *                             lanes, drain: exchange 0      (all seq_cst)
 *
 * On host lanes all of it is ordinary host memory and every access is a GCC
 * atomic of the same kind; the split keeps one protocol for both.
 */
#ifndef GSD_CHANNEL_H
#define GSD_CHANNEL_H

#include <stdint.h>

#include "cdefs.h"

/* Descriptor operations. */
enum {
    GSD_OP_PUT = 1,        /* offset <- len bytes at local */
    GSD_OP_GET = 2,        /* local <- len bytes at offset */
    GSD_OP_P = 3,          /* offset <- len (1, 2, 4, 8) bytes of value */
    GSD_OP_AMO = 4,        /* amo op (aux2) of len (4, 8) bytes at offset: operand value,
                              compare aux; result to ret slot when ret != GSD_NO_RET */
    GSD_OP_PUT_SIGNAL = 5, /* PUT, then (ordered after it) signal op aux2 (GSD_SIGNAL_SET/ADD)
                              of value at aux (offset in sig_region) */
    GSD_OP_FENCE = 6,      /* order the operations before it before those after it */
    /* Strided, one descriptor for a whole gshmem_iput / iget (src/gpu/proxy.c
     * carries it out element by element): len elements of aux2 bytes, the
     * symmetric side from offset by value bytes, the local side from local
     * by aux bytes (value and aux are int64_t strides, in bytes). */
    GSD_OP_IPUT = 7,
    GSD_OP_IGET = 8
};

/* The signal op (aux2) of a GSD_OP_PUT_SIGNAL: SHMEM_SIGNAL_SET / _ADD's values. */
#define GSD_SIGNAL_SET 0
#define GSD_SIGNAL_ADD 1

/* AMO operations: the same values as the core's gst_amo_op_t. */
typedef enum gsd_amo_op {
    GSD_AMO_FETCH,
    GSD_AMO_SET,
    GSD_AMO_SWAP,
    GSD_AMO_CSWAP,
    GSD_AMO_FADD,
    GSD_AMO_FAND,
    GSD_AMO_FOR,
    GSD_AMO_FXOR
} gsd_amo_op_t;

#define GSD_NO_RET UINT64_MAX

typedef struct gsd_desc {
    uint64_t seq;    /* ticket + 1 once the rest is written (release) */
    uint32_t op;     /* GSD_OP_* */
    int32_t pe;      /* target world PE */
    uint64_t offset; /* target: offset in region */
    uint64_t local;  /* address in this PE: put source, get destination */
    uint64_t len;    /* bytes */
    uint64_t value;  /* P value, AMO operand, signal value */
    uint64_t aux;    /* AMO compare, PUT_SIGNAL signal offset */
    uint64_t ret;    /* return slot ticket (GSD_NO_RET: none) */
} gsd_desc_t;

/* The few fields a descriptor packs beside them. */
#define GSD_DESC_OP(op, region, sig_region, aux2)                              \
    ((uint32_t)(op) | (uint32_t)(region) << 8 | (uint32_t)(sig_region) << 16 | \
     (uint32_t)(aux2) << 24)
#define GSD_DESC_KIND(w) ((w)&0xffu)
#define GSD_DESC_REGION(w) (((w) >> 8) & 0xffu)
#define GSD_DESC_SIG_REGION(w) (((w) >> 16) & 0xffu)
#define GSD_DESC_AUX2(w) ((w) >> 24)

typedef struct gsd_ret {
    uint64_t value;
    uint64_t seq; /* 2r: free for ticket r; 2r + 1: value of ticket r is here */
} gsd_ret_t;

typedef struct gsd_channel {
    gsd_desc_t *ring;     /* [size]; GPU: mapped pinned host memory */
    uint64_t *head;       /* tickets taken; GPU: device memory */
    uint64_t *tail_cache; /* producers' last view of tail; GPU: device memory */
    uint64_t *tail;       /* descriptors consumed (proxy, release) */
    uint64_t *done;       /* descriptors completed remotely (proxy, release) */
    uint64_t *quiet_req;  /* highest head a lane's quiet waits for (lanes only, atomic max) */
    uint64_t *quiet_host; /* highest frontier a host drain waits for (host threads only) */
    gsd_ret_t *ret;       /* [n_ret] return slots */
    uint64_t *ret_head;   /* return-slot tickets taken */
    uint32_t *wake;       /* 1 while the consumer sleeps (host lanes only; NULL on a GPU) */
    uint32_t size;        /* descriptors, a power of two */
    uint32_t n_ret;       /* return slots, a power of two */
} gsd_channel_t;

GSD_STATIC_ASSERT(sizeof(gsd_desc_t) == 64, "a descriptor is one cache line");
GSD_STATIC_ASSERT(sizeof(gsd_channel_t) == 88, "gsd_channel_t layout");

#endif /* GSD_CHANNEL_H */
