/* src/net/verbs/verbs_qp.c - one reliable-connected QP per network peer
 * (per PE, this one included, where atomics need it: create_qps).
 *
 * Every PE creates its QPs, then one allgather carries each PE's address
 * (GID or LID, PSN, MTU) and the QP number it made for every other PE; each
 * QP then goes INIT -> RTR -> RTS against the peer's QP for this PE (a QP
 * for this PE itself is connected to itself).  One QP per peer, shared by
 * the PE's threads under gst_verbs.lock (QPs per proxy thread are not made
 * yet). */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/verbs/verbs_state.h"

/* Small puts go inline (no DMA read of the source) up to this. */
#define WANT_INLINE 64
/* Retransmission: 4.096 us * 2^TIMEOUT per try, RETRIES tries, so a dead
 * peer is reported after about half a second. */
#define TIMEOUT 14
#define RETRIES 7

static const int ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                          IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

static struct ibv_qp *create_qp(uint32_t inline_len)
{
    struct ibv_qp_init_attr init = {
        .send_cq = gst_verbs.cq,
        .recv_cq = gst_verbs.cq,
        .qp_type = IBV_QPT_RC,
        .sq_sig_all = 0,
        .cap = {.max_send_wr = gst_verbs.sq_depth, /* the window's credits */
                .max_recv_wr = 1,
                .max_send_sge = 1,
                .max_recv_sge = 1,
                .max_inline_data = inline_len},
    };

    return ibv_create_qp(gst_verbs.pd, &init);
}

static int to_init(struct ibv_qp *qp)
{
    struct ibv_qp_attr attr = {.qp_state = IBV_QPS_INIT,
                               .pkey_index = 0,
                               .port_num = (uint8_t)gst_verbs.port.port,
                               .qp_access_flags = ACCESS};

    return ibv_modify_qp(qp, &attr,
                         IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static int to_rtr(struct ibv_qp *qp, const gst_verbs_addr_t *mine, const gst_verbs_addr_t *peer,
                  uint32_t peer_qpn)
{
    struct ibv_qp_attr attr = {
        .qp_state = IBV_QPS_RTR,
        .path_mtu = (enum ibv_mtu)(mine->mtu < peer->mtu ? mine->mtu : peer->mtu),
        .dest_qp_num = peer_qpn,
        .rq_psn = peer->psn,
        .max_dest_rd_atomic = (uint8_t)gst_verbs.rd_atomic,
        .min_rnr_timer = 12,
        .ah_attr = {.dlid = peer->lid, .sl = 0, .port_num = (uint8_t)gst_verbs.port.port},
    };

    if (peer->global) {
        attr.ah_attr.is_global = 1;
        memcpy(attr.ah_attr.grh.dgid.raw, peer->gid, 16);
        attr.ah_attr.grh.sgid_index = (uint8_t)gst_verbs.port.gid_index;
        attr.ah_attr.grh.hop_limit = 64;
    }
    return ibv_modify_qp(qp, &attr,
                         IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                             IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
}

static int to_rts(struct ibv_qp *qp, uint32_t psn)
{
    struct ibv_qp_attr attr = {.qp_state = IBV_QPS_RTS,
                               .timeout = TIMEOUT,
                               .retry_cnt = RETRIES,
                               .rnr_retry = 7,
                               .sq_psn = psn,
                               .max_rd_atomic = (uint8_t)gst_verbs.rd_atomic};

    return ibv_modify_qp(qp, &attr,
                         IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                             IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* Create the QPs with inline data where the device takes it (rxe and mlx5
 * do; a device that refuses gets none).  Where the device's atomics are not
 * atomic with the CPU's (IBV_ATOMIC_HCA), every PE gets a QP, this one
 * (loopback) and those mapped by load/store too: the core then sends every
 * atomic through this transport (GST_CAP_AMO_ALL_PES in transport.h). */
static gsi_status_t create_qps(const char *net_peer, char *err, size_t errlen)
{
    gst_verbs.max_inline = WANT_INLINE;
    for (int pe = 0; pe < gst_verbs.n_pes; pe++) {
        if (!net_peer[pe] && !gst_verbs.amo_all_pes)
            continue;
        gst_verbs.qp[pe] = create_qp(gst_verbs.max_inline);
        if (!gst_verbs.qp[pe] && gst_verbs.max_inline) {
            gst_verbs.max_inline = 0;
            gst_verbs.qp[pe] = create_qp(0);
        }
        if (!gst_verbs.qp[pe]) {
            snprintf(err, errlen, "ibv_create_qp for PE %d failed", pe);
            return GSI_ERR_SYSTEM;
        }
        if (to_init(gst_verbs.qp[pe])) {
            snprintf(err, errlen, "QP for PE %d: ibv_modify_qp to INIT failed", pe);
            return GSI_ERR_SYSTEM;
        }
    }
    return GSI_OK;
}

gsi_status_t gst_verbs_connect(const char *net_peer, char *err, size_t errlen)
{
    int n = gst_verbs.n_pes, me = gst_verbs.my_pe;
    size_t stride = sizeof(gst_verbs_addr_t) + (size_t)n * sizeof(uint32_t);
    gst_verbs_addr_t *mine;
    char *in, *all;
    uint32_t *qpn;
    gsi_status_t status;

    gst_verbs.rd_atomic = (uint32_t)gst_verbs.dev_attr.max_qp_rd_atom;
    if (gst_verbs.rd_atomic > 16)
        gst_verbs.rd_atomic = 16;
    if ((uint32_t)gst_verbs.dev_attr.max_qp_init_rd_atom < gst_verbs.rd_atomic)
        gst_verbs.rd_atomic = (uint32_t)gst_verbs.dev_attr.max_qp_init_rd_atom;
    status = create_qps(net_peer, err, errlen);
    if (status != GSI_OK)
        return status;
    in = calloc(1, stride);
    all = calloc((size_t)n, stride);
    if (!in || !all) {
        free(in);
        free(all);
        snprintf(err, errlen, "out of memory for %d QP addresses", n);
        return GSI_ERR_NOMEM;
    }
    mine = (gst_verbs_addr_t *)in;
    memcpy(mine->gid, gst_verbs.port.gid.raw, 16);
    mine->lid = gst_verbs.port.attr.lid;
    mine->mtu = (uint8_t)gst_verbs.port.attr.active_mtu;
    mine->global = gst_verbs.port.gid_index >= 0;
    mine->psn = ((uint32_t)getpid() * 2654435761u ^ (uint32_t)me) & 0xffffffu;
    qpn = (uint32_t *)(in + sizeof(*mine));
    for (int pe = 0; pe < n; pe++)
        qpn[pe] = gst_verbs.qp[pe] ? gst_verbs.qp[pe]->qp_num : 0;
    if (gst_verbs.allgather(in, all, stride) != 0) {
        snprintf(err, errlen, "the exchange of QP addresses failed");
        status = GSI_ERR_BOOTSTRAP;
        goto err_free;
    }
    for (int pe = 0; pe < n; pe++) {
        const gst_verbs_addr_t *peer = (const gst_verbs_addr_t *)(all + (size_t)pe * stride);
        uint32_t peer_qpn = ((const uint32_t *)(all + (size_t)pe * stride + sizeof(*peer)))[me];

        if (!gst_verbs.qp[pe])
            continue;
        if (peer->global != mine->global) {
            snprintf(err, errlen, "PE %d's RDMA port is %s and this PE's is %s", pe,
                     peer->global ? "RoCE" : "InfiniBand", mine->global ? "RoCE" : "InfiniBand");
            status = GSI_ERR_MISMATCH;
            goto err_free;
        }
        if (to_rtr(gst_verbs.qp[pe], mine, peer, peer_qpn) || to_rts(gst_verbs.qp[pe], mine->psn)) {
            snprintf(err, errlen, "connecting the QP to PE %d (QPN %u) failed", pe, peer_qpn);
            status = GSI_ERR_SYSTEM;
            goto err_free;
        }
    }
    status = GSI_OK;
err_free:
    free(in);
    free(all);
    return status;
}

void gst_verbs_destroy_qps(void)
{
    for (int pe = 0; gst_verbs.qp && pe < gst_verbs.n_pes; pe++)
        if (gst_verbs.qp[pe])
            ibv_destroy_qp(gst_verbs.qp[pe]);
    free(gst_verbs.qp);
    gst_verbs.qp = NULL;
}

#endif
