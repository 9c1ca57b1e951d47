/* src/net/ucx/ucx_extra.c - regions added to the UCX transport after init
 * (gst_map_region_fn_t in transport.h): the GPU device heap, registered in
 * chunks as it grows, each chunk with every peer's key of its own. */
#include "config.h"
#include "net/transport.h"

#ifdef GSHMEM_HAVE_UCX

#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "net/ucx/ucx_state.h"

void gst_ucx_extra_release(int region)
{
    gst_ucx_extra_t *x = &gst_ucx.extra[region];

    for (int c = 0; c < x->n_chunks; c++) {
        for (int pe = 0; x->rkey[c] && pe < gst_ucx.n_pes; pe++)
            if (x->rkey[c][pe])
                ucp_rkey_destroy(x->rkey[c][pe]);
        free(x->rkey[c]);
        if (x->mem[c])
            ucp_mem_unmap(gst_ucx.context, x->mem[c]);
    }
    free(x->end);
    free(x->mem);
    free(x->rkey);
    free(x->peer_base);
    memset(x, 0, sizeof(*x));
}

/* Room for one more chunk. */
static gsi_status_t extra_reserve(gst_ucx_extra_t *x)
{
    int cap = x->cap ? 2 * x->cap : 8;
    size_t *end;
    ucp_mem_h *mem;
    ucp_rkey_h **rkey;

    if (x->n_chunks < x->cap)
        return GSI_OK;
    end = realloc(x->end, (size_t)cap * sizeof(*end));
    if (end)
        x->end = end;
    mem = realloc(x->mem, (size_t)cap * sizeof(*mem));
    if (mem)
        x->mem = mem;
    rkey = realloc(x->rkey, (size_t)cap * sizeof(*rkey));
    if (rkey)
        x->rkey = rkey;
    if (!end || !mem || !rkey)
        return GSI_ERR_NOMEM;
    x->cap = cap;
    return GSI_OK;
}

/* Register [from, size) of region as its next chunk and learn every peer's
 * key for it.  The registration, packing and allgather run without our lock
 * (the context is shared among workers, and the allgather may take long);
 * the keys are unpacked and the chunk made visible under it. */
static gsi_status_t extra_add_chunk(int region, size_t from, size_t size, gst_mem_type_t mem_type,
                                    char *err, size_t errlen)
{
    gst_ucx_extra_t *x = &gst_ucx.extra[region];
    gst_init_args_t gather = {.n_pes = gst_ucx.n_pes, .allgather = gst_ucx.allgather};
    ucp_mem_map_params_t mp = {0};
    ucp_rkey_h *keys;
    ucp_mem_h mem;
    void *packed;
    size_t packed_len, stride;
    char *all;
    ucs_status_t status;
    gsi_status_t gst;

    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                    UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE;
    mp.address = (char *)x->base + from;
    mp.length = size - from;
    mp.memory_type = mem_type == GST_MEM_CUDA ? UCS_MEMORY_TYPE_CUDA : UCS_MEMORY_TYPE_HOST;
    status = ucp_mem_map(gst_ucx.context, &mp, &mem);
    if (status != UCS_OK) {
        snprintf(err, errlen, "UCX ucp_mem_map of %zu bytes of %s memory: %s%s", size - from,
                 mem_type == GST_MEM_CUDA ? "CUDA" : "host", ucs_status_string(status),
                 mem_type == GST_MEM_CUDA ? " (is UCX built with CUDA support, and is GPUDirect "
                                            "RDMA (nvidia_peermem) loaded?)"
                                          : "");
        return GSI_ERR_SYSTEM;
    }
    status = ucp_rkey_pack(gst_ucx.context, mem, &packed, &packed_len);
    if (status != UCS_OK) {
        ucp_mem_unmap(gst_ucx.context, mem);
        return gst_ucx_failed(err, errlen, "ucp_rkey_pack", status);
    }
    gst = gst_ucx_gather_blobs(&gather, packed, packed_len, &all, &stride);
    ucp_rkey_buffer_release(packed);
    if (gst != GSI_OK) {
        ucp_mem_unmap(gst_ucx.context, mem);
        snprintf(err, errlen, "exchanging UCX rkeys failed");
        return gst;
    }
    keys = calloc((size_t)gst_ucx.n_pes, sizeof(*keys));
    gst_ucx_lock();
    gst = keys ? extra_reserve(x) : GSI_ERR_NOMEM;
    for (int pe = 0; gst == GSI_OK && pe < gst_ucx.n_pes; pe++) {
        if (!gst_ucx.ep[pe])
            continue;
        status = ucp_ep_rkey_unpack(gst_ucx.ep[pe], all + (size_t)pe * stride, &keys[pe]);
        if (status != UCS_OK)
            gst = gst_ucx_failed(err, errlen, "ucp_ep_rkey_unpack", status);
    }
    if (gst == GSI_OK) {
        x->end[x->n_chunks] = size;
        x->mem[x->n_chunks] = mem;
        x->rkey[x->n_chunks] = keys;
        x->n_chunks++;
    }
    gst_ucx_unlock();
    free(all);
    if (gst != GSI_OK) {
        for (int pe = 0; keys && pe < gst_ucx.n_pes; pe++)
            if (keys[pe])
                ucp_rkey_destroy(keys[pe]);
        free(keys);
        ucp_mem_unmap(gst_ucx.context, mem);
        if (gst == GSI_ERR_NOMEM)
            snprintf(err, errlen, "out of memory for the keys of %d PEs", gst_ucx.n_pes);
    }
    return gst;
}

gsi_status_t gst_ucx_map_region(int region, void *base, size_t size, gst_mem_type_t mem_type,
                                char *err, size_t errlen)
{
    gst_ucx_extra_t *x;
    size_t from;

    if (region < gst_ucx.n_regions || region >= GST_MAX_REGIONS) {
        snprintf(err, errlen, "UCX transport: region %d cannot be added (%d at init, at most %d)",
                 region, gst_ucx.n_regions, GST_MAX_REGIONS);
        return GSI_ERR_INVALID;
    }
    x = &gst_ucx.extra[region];
    if (size == 0) {
        gst_ucx_lock();
        gst_ucx_extra_release(region);
        gst_ucx_unlock();
        return GSI_OK;
    }
    if (!gst_ucx.context) {
        snprintf(err, errlen, "UCX transport is not initialized");
        return GSI_ERR_INVALID;
    }
    if (x->n_chunks == 0) {
        uint64_t mine = (uint64_t)(uintptr_t)base;
        uint64_t *bases = calloc((size_t)gst_ucx.n_pes, sizeof(*bases));

        if (!bases) {
            snprintf(err, errlen, "out of memory for %d PEs", gst_ucx.n_pes);
            return GSI_ERR_NOMEM;
        }
        if (gst_ucx.allgather(&mine, bases, sizeof(mine)) != 0) {
            free(bases);
            snprintf(err, errlen, "exchanging region %d's bases failed", region);
            return GSI_ERR_BOOTSTRAP;
        }
        x->peer_base = bases;
        x->base = base;
    } else if (base != x->base) {
        snprintf(err, errlen, "region %d moved from %p to %p", region, x->base, base);
        return GSI_ERR_INVALID;
    }
    from = x->n_chunks ? x->end[x->n_chunks - 1] : 0;
    if (size < from) {
        snprintf(err, errlen, "region %d cannot shrink from %zu to %zu bytes", region, from, size);
        return GSI_ERR_INVALID;
    }
    if (size == from)
        return GSI_OK;
    return extra_add_chunk(region, from, size, mem_type, err, errlen);
}

#endif /* GSHMEM_HAVE_UCX */
