/* src/net/verbs/verbs.c - the network transport over rdma-core verbs:
 * setup, teardown, ordering, caps and the ops table (verbs_state.h lists the
 * other files).
 *
 * One protection domain, one completion queue and one RC QP per network
 * peer, all made and connected at init; the regions registered at init and
 * as they are added (map_region).  RDMA needs no target CPU, so there is no
 * progress thread and nothing for progress to drive: operations complete
 * on the NIC and whoever waits (a blocking get, a bounce slot, quiet) polls
 * the CQ (verbs_rma.c).  The CQ is sized so that every QP's window of
 * signalled WRs fits at once: a CQ that overruns loses completions and the
 * job hangs.  One thread sleeps on the device's event fd (verbs_async.c): a
 * port that goes down ends the job. */
#include "config.h"
#include "net/transport.h"

#ifdef GSHMEM_HAVE_VERBS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/verbs/verbs_state.h"

static gsi_status_t take_regions(const gst_init_args_t *args, char *err, size_t errlen)
{
    for (int r = 0; r < args->n_regions; r++) {
        gst_verbs_region_t *reg = &gst_verbs.region[r];
        gsi_status_t status;

        reg->base = args->base[r];
        reg->peer_base = calloc((size_t)args->n_pes, sizeof(uint64_t));
        if (!reg->peer_base) {
            snprintf(err, errlen, "out of memory for %d PEs' bases", args->n_pes);
            return GSI_ERR_NOMEM;
        }
        for (int pe = 0; pe < args->n_pes; pe++)
            reg->peer_base[pe] = args->peer_base[pe * args->n_regions + r];
        if (args->size[r] == 0)
            continue;
        status = gst_verbs_add_chunk(r, 0, args->size[r], GST_MEM_HOST, err, errlen);
        if (status != GSI_OK)
            return status;
    }
    return GSI_OK;
}

static void release_all(void)
{
    gst_verbs_async_stop();
    for (int r = 0; r < GST_MAX_REGIONS; r++)
        gst_verbs_release_region(r);
    gst_verbs_destroy_qps();
    free(gst_verbs.win);
    free(gst_verbs.net_peer);
    if (gst_verbs.bounce_mr)
        ibv_dereg_mr(gst_verbs.bounce_mr);
    free(gst_verbs.bounce);
    if (gst_verbs.cq)
        ibv_destroy_cq(gst_verbs.cq);
    if (gst_verbs.pd)
        ibv_dealloc_pd(gst_verbs.pd);
    if (gst_verbs.ctx)
        ibv_close_device(gst_verbs.ctx);
    pthread_mutex_destroy(&gst_verbs.lock);
    memset(&gst_verbs, 0, sizeof(gst_verbs));
}

/* Every QP may have gst_verbs.sq_depth signalled WRs outstanding, each
 * with its entry in the one CQ: the depth is what the device's max_cqe
 * allows for n_pes QPs (and its max_qp_wr), at most GST_VERBS_SQ_DEPTH. */
#define CQ_MARGIN 64
static gsi_status_t size_queues(int n_pes, int *cqe, char *err, size_t errlen)
{
    long depth = GST_VERBS_SQ_DEPTH, max_cqe = gst_verbs.dev_attr.max_cqe;

    if (depth > gst_verbs.dev_attr.max_qp_wr)
        depth = gst_verbs.dev_attr.max_qp_wr;
    if ((long)n_pes * depth + CQ_MARGIN > max_cqe)
        depth = (max_cqe - CQ_MARGIN) / n_pes;
    if (depth < 2) {
        snprintf(err, errlen, "%s: its CQs (max_cqe %ld) are too small for %d QPs",
                 gst_verbs.port.dev_name, max_cqe, n_pes);
        return GSI_ERR_SYSTEM;
    }
    gst_verbs.sq_depth = (unsigned)depth;
    *cqe = (int)((long)n_pes * depth + CQ_MARGIN);
    return GSI_OK;
}

static gsi_status_t verbs_init(const gst_init_args_t *args, char *err, size_t errlen)
{
    gsi_status_t status;
    int cqe;

    memset(&gst_verbs, 0, sizeof(gst_verbs));
    gst_verbs.my_pe = args->my_pe;
    gst_verbs.n_pes = args->n_pes;
    gst_verbs.allgather = args->allgather;
    gst_verbs.wait_timeout = args->wait_timeout;
    pthread_mutex_init(&gst_verbs.lock, NULL);
    status = gst_verbs_open_device(args->hca, err, errlen);
    if (status != GSI_OK)
        goto err_release;
    status = GSI_ERR_SYSTEM;
    gst_verbs.pd = ibv_alloc_pd(gst_verbs.ctx);
    if (!gst_verbs.pd) {
        snprintf(err, errlen, "%s: ibv_alloc_pd failed", gst_verbs.port.dev_name);
        goto err_release;
    }
    status = size_queues(args->n_pes, &cqe, err, errlen);
    if (status != GSI_OK)
        goto err_release;
    status = GSI_ERR_SYSTEM;
    gst_verbs.cq = ibv_create_cq(gst_verbs.ctx, cqe, NULL, NULL, 0);
    if (!gst_verbs.cq) {
        snprintf(err, errlen, "%s: ibv_create_cq failed", gst_verbs.port.dev_name);
        goto err_release;
    }
    gst_verbs.bounce = aligned_alloc(4096, GST_VERBS_BOUNCE + 4096);
    gst_verbs.qp = calloc((size_t)args->n_pes, sizeof(*gst_verbs.qp));
    gst_verbs.win = calloc((size_t)args->n_pes, sizeof(*gst_verbs.win));
    gst_verbs.net_peer = malloc((size_t)args->n_pes);
    if (!gst_verbs.bounce || !gst_verbs.qp || !gst_verbs.win || !gst_verbs.net_peer) {
        snprintf(err, errlen, "out of memory for the bounce buffer");
        status = GSI_ERR_NOMEM;
        goto err_release;
    }
    memcpy(gst_verbs.net_peer, args->net_peer, (size_t)args->n_pes);
    gst_verbs.bounce_mr = ibv_reg_mr(gst_verbs.pd, gst_verbs.bounce, GST_VERBS_BOUNCE_MR,
                                     IBV_ACCESS_LOCAL_WRITE);
    if (!gst_verbs.bounce_mr) {
        snprintf(err, errlen, "%s: ibv_reg_mr of the bounce buffer failed",
                 gst_verbs.port.dev_name);
        goto err_release;
    }
    gst_verbs.amo_all_pes = gst_verbs.dev_attr.atomic_cap == IBV_ATOMIC_HCA;
    status = gst_verbs_connect(args->net_peer, err, errlen);
    if (status != GSI_OK)
        goto err_release;
    status = take_regions(args, err, errlen);
    if (status != GSI_OK)
        goto err_release;
    status = gst_verbs_async_start(err, errlen);
    if (status != GSI_OK)
        goto err_release;
    return GSI_OK;
err_release:
    release_all();
    return status;
}

/* Collective: this PE's WRs complete first, so once every PE is past the
 * allgather none has an operation left towards another. */
static void verbs_finalize(void)
{
    int mine = 0, *all = calloc((size_t)gst_verbs.n_pes, sizeof(int));

    pthread_mutex_lock(&gst_verbs.lock);
    gst_verbs_quiet_locked();
    pthread_mutex_unlock(&gst_verbs.lock);
    if (all)
        gst_verbs.allgather(&mine, all, sizeof(mine));
    free(all);
    release_all();
}

static gsi_status_t verbs_map_region(int region, void *base, size_t size, gst_mem_type_t mem_type,
                                     char *err, size_t errlen)
{
    gst_verbs_region_t *r = &gst_verbs.region[region];
    size_t done = 0;
    uint64_t mine = (uint64_t)(uintptr_t)base;
    gsi_status_t status;

    if (size == 0) {
        gst_verbs_release_region(region);
        return GSI_OK;
    }
    if (r->n_chunks == 0) {
        r->base = base;
        r->peer_base = calloc((size_t)gst_verbs.n_pes, sizeof(uint64_t));
        if (!r->peer_base) {
            snprintf(err, errlen, "out of memory for %d PEs' bases", gst_verbs.n_pes);
            return GSI_ERR_NOMEM;
        }
        if (gst_verbs.allgather(&mine, r->peer_base, sizeof(mine)) != 0) {
            snprintf(err, errlen, "the exchange of region %d's bases failed", region);
            return GSI_ERR_BOOTSTRAP;
        }
    } else {
        const gst_verbs_chunk_t *last = &r->chunk[r->n_chunks - 1];

        if ((char *)base != r->base) {
            snprintf(err, errlen, "region %d grew at another base (%p, was %p)", region, base,
                     (void *)r->base);
            return GSI_ERR_INVALID;
        }
        done = last->start + last->len;
    }
    if (size <= done)
        return GSI_OK;
    pthread_mutex_lock(&gst_verbs.lock);
    status = gst_verbs_add_chunk(region, done, size - done, mem_type, err, errlen);
    pthread_mutex_unlock(&gst_verbs.lock);
    return status;
}

static unsigned verbs_caps(gst_mem_type_t mem_type, char *why, size_t whylen)
{
    unsigned amo = GST_CAP_AMO;

    if (gst_verbs.dev_attr.atomic_cap == IBV_ATOMIC_NONE) {
        snprintf(why, whylen, "RDMA device %s has no atomics", gst_verbs.port.dev_name);
        amo = 0;
    }
    if (mem_type == GST_MEM_CUDA && !gst_verbs_cuda_registrable(why, whylen))
        return 0;
    if (mem_type == GST_MEM_HOST && amo && gst_verbs.amo_all_pes)
        amo |= GST_CAP_AMO_ALL_PES;
    return GST_CAP_PUT | GST_CAP_GET | amo;
}

const gst_ops_t gst_verbs_ops = {
    .name = "verbs",
    .init = verbs_init,
    .finalize = verbs_finalize,
    .progress = NULL,
    .put = gst_verbs_put,
    .get = gst_verbs_get,
    .amo = gst_verbs_amo,
    .fence = gst_verbs_fence,
    .quiet = gst_verbs_quiet,
    .map_region = verbs_map_region,
    .caps = verbs_caps,
    .put_nbi = gst_verbs_put_nbi,
    .get_nbi = gst_verbs_get_nbi,
    .p_nbi = gst_verbs_p_nbi,
    .amo_nbi = gst_verbs_amo_nbi,
    /* nothing is held back: every WR is posted as it is issued */
    .post = NULL,
};

#endif
