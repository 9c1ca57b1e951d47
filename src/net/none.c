/* src/net/none.c - the transport of a build or a run without a network:
 * every operation reports "unsupported"; ordering has nothing to wait for. */
#include "net/transport.h"

#include <stdio.h>

static gsi_status_t none_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    (void)pe, (void)region, (void)offset, (void)src, (void)len;
    return GSI_ERR_UNSUPPORTED;
}

static gsi_status_t none_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    (void)dst, (void)pe, (void)region, (void)offset, (void)len;
    return GSI_ERR_UNSUPPORTED;
}

static gsi_status_t none_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                             const void *operand, const void *compare, void *fetched)
{
    (void)pe, (void)region, (void)offset, (void)op, (void)size;
    (void)operand, (void)compare, (void)fetched;
    return GSI_ERR_UNSUPPORTED;
}

static gsi_status_t none_order(void)
{
    return GSI_OK;
}

/* No peer is reached through the network: nothing to register. */
static gsi_status_t none_map_region(int region, void *base, size_t size, gst_mem_type_t mem_type,
                                    char *err, size_t errlen)
{
    (void)region, (void)base, (void)size, (void)mem_type, (void)err, (void)errlen;
    return GSI_OK;
}

/* Nothing goes through it: every peer is mapped by load/store. */
static unsigned none_caps(gst_mem_type_t mem_type, char *why, size_t whylen)
{
    (void)mem_type;
    snprintf(why, whylen, "there is no network transport");
    return 0;
}

static gsi_status_t none_init(const gst_init_args_t *args, char *err, size_t errlen)
{
    (void)args, (void)err, (void)errlen;
    return GSI_OK;
}

static void none_finalize(void)
{
}

const gst_ops_t gst_none_ops = {
    .name = "none",
    .init = none_init,
    .finalize = none_finalize,
    .progress = NULL,
    .put = none_put,
    .get = none_get,
    .amo = none_amo,
    .fence = none_order,
    .quiet = none_order,
    .map_region = none_map_region,
    .caps = none_caps,
};
