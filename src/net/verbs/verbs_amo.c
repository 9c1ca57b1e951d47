/* src/net/verbs/verbs_amo.c - atomics as verbs atomics.
 *
 * InfiniBand has two atomics, both on an aligned 8-byte word: fetch-and-add
 * and compare-and-swap.  8-byte fetch, fetch-add and compare-swap map onto
 * them directly; set, swap, and, or and xor are a compare-and-swap loop on
 * the word; every 4-byte operation is a compare-and-swap loop on the
 * aligned 8-byte word that holds it, leaving the other 4 bytes as they were
 * (a loop iteration that raced with a change to them fails and retries).
 *
 * Atomics that go through this transport to a PE are atomic with respect
 * to each other (the responder's NIC serializes them).  With
 * IBV_ATOMIC_GLOB they are also atomic with respect to the target's own CPU
 * atomics on the word; with IBV_ATOMIC_HCA (rxe, most mlx5 settings) they
 * are not: a CPU's fetch-add between the NIC's read and write of the word
 * is lost (seen on rxe: one add in 24 gone).  So on such a device every
 * PE's host atomics go through here, to itself (a loopback QP) and to the
 * PEs it maps too (GST_CAP_AMO_ALL_PES), as Sandia OpenSHMEM does unless
 * told the NIC's atomics are the CPU's.  gshmem-info says which the device
 * has. */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <string.h>

#include "net/verbs/verbs_state.h"

/* One verbs atomic on the 8-byte word at (region, offset) of pe, posted
 * signalled (every atomic is: its rd_atomic credit must come back).  old:
 * wait for it and take the word's old value; NULL: return at once, the old
 * value going to the scratch word nobody reads (the next quiet completes
 * it).  gst_verbs.lock held. */
static gsi_status_t atomic8(int pe, int region, size_t offset, enum ibv_wr_opcode opcode,
                            uint64_t compare_add, uint64_t swap, uint64_t *old)
{
    const gst_verbs_chunk_t *c = gst_verbs_find_chunk(region, offset);
    uint64_t *slot = (uint64_t *)(void *)(gst_verbs.bounce +
                                          (old ? GST_VERBS_AMO_RESULT : GST_VERBS_AMO_SCRATCH));
    struct ibv_sge sge = {.addr = (uintptr_t)slot, .length = 8, .lkey = gst_verbs.bounce_mr->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = opcode};
    uint64_t seq;

    if (!c || pe < 0 || pe >= gst_verbs.n_pes || !gst_verbs.qp[pe] || offset % 8)
        return GSI_ERR_INVALID;
    wr.wr.atomic.remote_addr = gst_verbs.region[region].peer_base[pe] + offset;
    wr.wr.atomic.rkey = c->rkey[pe];
    wr.wr.atomic.compare_add = compare_add;
    wr.wr.atomic.swap = swap;
    seq = gst_verbs_post(pe, &wr, 1);
    if (old) {
        gst_verbs_wait(pe, seq);
        *old = *slot;
    }
    return GSI_OK;
}

static uint64_t apply(gst_amo_op_t op, uint64_t cur, uint64_t operand)
{
    switch (op) {
    case GST_AMO_FADD: return cur + operand;
    case GST_AMO_FAND: return cur & operand;
    case GST_AMO_FOR: return cur | operand;
    case GST_AMO_FXOR: return cur ^ operand;
    default: /* SET, SWAP, CSWAP (once its compare matched) */ return operand;
    }
}

/* The op on the `size` bytes at byte `shift` of the word at `word`, by a
 * compare-and-swap loop; *fetched gets those bytes' old value. */
static gsi_status_t cas_loop(int pe, int region, size_t word, unsigned shift, size_t size,
                             gst_amo_op_t op, uint64_t operand, uint64_t compare, uint64_t *fetched)
{
    uint64_t mask = size == 8 ? ~0ull : ((1ull << (8 * size)) - 1) << shift;
    uint64_t cur, seen, lane;
    gsi_status_t status;

    status = atomic8(pe, region, word, IBV_WR_ATOMIC_FETCH_AND_ADD, 0, 0, &cur);
    for (;;) {
        if (status != GSI_OK)
            return status;
        lane = (cur & mask) >> shift;
        if (op == GST_AMO_FETCH || (op == GST_AMO_CSWAP && lane != compare))
            break;
        lane = apply(op, lane, operand);
        status = atomic8(pe, region, word, IBV_WR_ATOMIC_CMP_AND_SWP, cur,
                         (cur & ~mask) | ((lane << shift) & mask), &seen);
        if (status == GSI_OK && seen == cur)
            break;
        cur = seen;
    }
    *fetched = (cur & mask) >> shift;
    return GSI_OK;
}

gsi_status_t gst_verbs_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                           const void *operand, const void *compare, void *fetched)
{
    uint64_t val = 0, cmp = 0, old = 0;
    gsi_status_t status;

    if ((size != 4 && size != 8) || offset % size)
        return GSI_ERR_INVALID;
    if (operand)
        memcpy(&val, operand, size);
    if (compare)
        memcpy(&cmp, compare, size);
    pthread_mutex_lock(&gst_verbs.lock);
    if (size == 8 && op == GST_AMO_FADD)
        status = atomic8(pe, region, offset, IBV_WR_ATOMIC_FETCH_AND_ADD, val, 0, &old);
    else if (size == 8 && op == GST_AMO_CSWAP)
        status = atomic8(pe, region, offset, IBV_WR_ATOMIC_CMP_AND_SWP, cmp, val, &old);
    else if (size == 8 && op == GST_AMO_FETCH)
        status = atomic8(pe, region, offset, IBV_WR_ATOMIC_FETCH_AND_ADD, 0, 0, &old);
    else
        /* Little-endian hosts: the 4 bytes at offset % 8 == 4 are the
         * word's high half. */
        status = cas_loop(pe, region, offset & ~(size_t)7, (unsigned)(offset & 7) * 8, size, op,
                          val, cmp, &old);
    pthread_mutex_unlock(&gst_verbs.lock);
    if (status == GSI_OK && fetched)
        memcpy(fetched, &old, size);
    return status;
}

/* The operations without a result: an 8-byte add to a network peer is a
 * fetch-add left outstanding; the rest wait as the blocking form does (a
 * compare-and-swap loop needs each result).  So does an add to a PE mapped
 * by load/store (GST_CAP_AMO_ALL_PES): a fence orders nothing between this
 * transport and the core's stores, so the add must land before the call
 * returns. */
gsi_status_t gst_verbs_amo_nbi(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                               uint64_t operand)
{
    gsi_status_t status;

    if (size == 8 && op == GST_AMO_FADD && offset % 8 == 0 && pe >= 0 && pe < gst_verbs.n_pes &&
        gst_verbs.net_peer[pe]) {
        pthread_mutex_lock(&gst_verbs.lock);
        status = atomic8(pe, region, offset, IBV_WR_ATOMIC_FETCH_AND_ADD, operand, 0, NULL);
        pthread_mutex_unlock(&gst_verbs.lock);
        return status;
    }
    return gst_verbs_amo(pe, region, offset, op, size, &operand, NULL, NULL);
}

#endif
