/* src/net/verbs/verbs_mr.c - registration of the symmetric regions.
 *
 * Each region is registered in chunks: init's regions (the host heap, the
 * static data) as one chunk each with ibv_reg_mr, the GPU heap one chunk per
 * map_region call as it grows (verbs_dmabuf.c).  Every chunk's rkeys are
 * exchanged through the allgather when it is added, so all PEs hold the
 * same chunk boundaries and an operation finds its rkey by offset. */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/verbs/verbs_state.h"

static const int ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                          IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

gsi_status_t gst_verbs_add_chunk(int region, size_t start, size_t len, gst_mem_type_t mem_type,
                                 char *err, size_t errlen)
{
    gst_verbs_region_t *r = &gst_verbs.region[region];
    gst_verbs_chunk_t *c;
    uint32_t key;

    if (r->n_chunks == GST_VERBS_MAX_CHUNKS) {
        snprintf(err, errlen, "region %d: more than %d registrations", region,
                 GST_VERBS_MAX_CHUNKS);
        return GSI_ERR_NOMEM;
    }
    c = &r->chunk[r->n_chunks];
    c->rkey = calloc((size_t)gst_verbs.n_pes, sizeof(uint32_t));
    if (!c->rkey) {
        snprintf(err, errlen, "out of memory for %d rkeys", gst_verbs.n_pes);
        return GSI_ERR_NOMEM;
    }
    if (mem_type == GST_MEM_CUDA)
        c->mr = gst_verbs_reg_cuda(gst_verbs.pd, r->base + start, len, ACCESS, err, errlen);
    else if (!(c->mr = ibv_reg_mr(gst_verbs.pd, r->base + start, len, ACCESS)))
        snprintf(err, errlen, "ibv_reg_mr of region %d (%zu bytes) failed", region, len);
    if (!c->mr)
        goto err_free_rkey;
    key = c->mr->rkey;
    if (gst_verbs.allgather(&key, c->rkey, sizeof(key)) != 0) {
        snprintf(err, errlen, "the exchange of region %d's rkeys failed", region);
        goto err_dereg;
    }
    c->start = start;
    c->len = len;
    r->n_chunks++;
    return GSI_OK;
err_dereg:
    ibv_dereg_mr(c->mr);
    c->mr = NULL;
err_free_rkey:
    free(c->rkey);
    c->rkey = NULL;
    return GSI_ERR_SYSTEM;
}

const gst_verbs_chunk_t *gst_verbs_find_chunk(int region, size_t offset)
{
    const gst_verbs_region_t *r;

    if (region < 0 || region >= GST_MAX_REGIONS)
        return NULL;
    r = &gst_verbs.region[region];
    for (int i = 0; i < r->n_chunks; i++)
        if (offset >= r->chunk[i].start && offset - r->chunk[i].start < r->chunk[i].len)
            return &r->chunk[i];
    return NULL;
}

/* The MR of a registered chunk holding all of [addr, addr + len); NULL if
 * none does (the caller goes through the bounce buffer). */
struct ibv_mr *gst_verbs_local_mr(const void *addr, size_t len)
{
    const char *p = addr;

    for (int reg = 0; reg < GST_MAX_REGIONS; reg++) {
        const gst_verbs_region_t *r = &gst_verbs.region[reg];

        for (int i = 0; i < r->n_chunks; i++) {
            const char *lo = r->base + r->chunk[i].start;

            if (r->chunk[i].mr && p >= lo && (size_t)(p - lo) + len <= r->chunk[i].len)
                return r->chunk[i].mr;
        }
    }
    return NULL;
}

void gst_verbs_release_region(int region)
{
    gst_verbs_region_t *r = &gst_verbs.region[region];

    for (int i = 0; i < r->n_chunks; i++) {
        if (r->chunk[i].mr)
            ibv_dereg_mr(r->chunk[i].mr);
        free(r->chunk[i].rkey);
    }
    free(r->peer_base);
    memset(r, 0, sizeof(*r));
}

#endif
