/* src/net/verbs/verbs_dev.c - which RDMA device, port and GID a PE uses.
 *
 * GSHMEM_HCA names a device, optionally with a port ("rxe0", "mlx5_0:1");
 * without it the first device with an active port is used.  On RoCE the
 * GID is the port's first RoCE v2 GID (routable over UDP/IP), preferring an
 * IPv4-mapped one, as NCCL does; on InfiniBand the LID addresses the peer. */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/verbs/verbs_dev.h"
#include "net/verbs/verbs_state.h"

/* The first active port of ctx at or after `want` (0: any); 0 if none. */
static int active_port(struct ibv_context *ctx, int want, struct ibv_port_attr *attr)
{
    struct ibv_device_attr dattr;

    if (ibv_query_device(ctx, &dattr))
        return 0;
    for (int p = 1; p <= dattr.phys_port_cnt; p++) {
        if (want && p != want)
            continue;
        if (ibv_query_port(ctx, (uint8_t)p, attr) == 0 && attr->state == IBV_PORT_ACTIVE)
            return p;
    }
    return 0;
}

static int is_ipv4_mapped(const union ibv_gid *gid)
{
    static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

    return memcmp(gid->raw, prefix, sizeof(prefix)) == 0;
}

/* RoCE: the GID index to address peers by (-1 if the port has none usable). */
static int choose_gid(struct ibv_context *ctx, int port, const struct ibv_port_attr *attr,
                      union ibv_gid *gid)
{
    int best = -1;

    if (attr->link_layer != IBV_LINK_LAYER_ETHERNET)
        return -1;
    for (int i = 0; i < attr->gid_tbl_len; i++) {
        struct ibv_gid_entry entry;

        if (ibv_query_gid_ex(ctx, (uint32_t)port, (uint32_t)i, &entry, 0))
            continue;
        if (entry.gid_type != IBV_GID_TYPE_ROCE_V2)
            continue;
        if (best < 0 || is_ipv4_mapped(&entry.gid)) {
            best = i;
            *gid = entry.gid;
            if (is_ipv4_mapped(&entry.gid))
                break;
        }
    }
    return best;
}

/* Split GSHMEM_HCA "name[:port]". */
static void parse_hca(const char *hca, char *name, size_t namelen, int *port)
{
    const char *colon = strchr(hca, ':');
    size_t n = colon ? (size_t)(colon - hca) : strlen(hca);

    if (n >= namelen)
        n = namelen - 1;
    memcpy(name, hca, n);
    name[n] = '\0';
    *port = colon ? atoi(colon + 1) : 0;
}

gsi_status_t gst_verbs_open_device(const char *hca, char *err, size_t errlen)
{
    gst_verbs_port_t *pt = &gst_verbs.port;
    struct ibv_device **list;
    char want[64] = "";
    int n = 0, want_port = 0;

    if (hca && *hca && strcmp(hca, "auto") != 0) {
        parse_hca(hca, want, sizeof(want), &want_port);
        if (want_port < 0 || (strchr(hca, ':') && want_port == 0)) {
            snprintf(err, errlen, "GSHMEM_HCA=%s: the port after ':' must be a number from 1", hca);
            return GSI_ERR_ENV;
        }
    }
    /* hca is the placement's NIC for this PE (src/core/peers.c asks
     * src/topo, which also resolves GSHMEM_HCA), else "auto": the first
     * device with an active port, below. */
    list = ibv_get_device_list(&n);
    if (!list || n == 0) {
        if (list)
            ibv_free_device_list(list);
        if (*want) {
            snprintf(err, errlen, "GSHMEM_HCA=%s: no such RDMA device (this host has none)", hca);
            return GSI_ERR_ENV;
        }
        snprintf(err, errlen, "no RDMA device (ibv_get_device_list found none)");
        return GSI_ERR_NO_TRANSPORT;
    }
    for (int i = 0; i < n && !gst_verbs.ctx; i++) {
        const char *name = ibv_get_device_name(list[i]);
        struct ibv_context *ctx;
        int port;

        if (*want && strcmp(name, want) != 0)
            continue;
        ctx = ibv_open_device(list[i]);
        if (!ctx)
            continue;
        port = active_port(ctx, want_port, &pt->attr);
        if (!port) {
            ibv_close_device(ctx);
            continue;
        }
        gst_verbs.ctx = ctx;
        pt->port = port;
        snprintf(pt->dev_name, sizeof(pt->dev_name), "%s", name);
    }
    ibv_free_device_list(list);
    if (!gst_verbs.ctx) {
        if (*want)
            snprintf(err, errlen, "GSHMEM_HCA=%s: no such RDMA device with an active port", hca);
        else
            snprintf(err, errlen, "no RDMA device has an active port");
        return *want ? GSI_ERR_ENV : GSI_ERR_NO_TRANSPORT;
    }
    pt->gid_index = choose_gid(gst_verbs.ctx, pt->port, &pt->attr, &pt->gid);
    if (pt->attr.link_layer == IBV_LINK_LAYER_ETHERNET && pt->gid_index < 0) {
        snprintf(err, errlen, "%s port %d: RoCE port without a RoCE v2 GID (no IP address?)",
                 pt->dev_name, pt->port);
        ibv_close_device(gst_verbs.ctx);
        gst_verbs.ctx = NULL;
        return GSI_ERR_NO_TRANSPORT;
    }
    if (ibv_query_device(gst_verbs.ctx, &gst_verbs.dev_attr)) {
        snprintf(err, errlen, "%s: ibv_query_device failed", pt->dev_name);
        ibv_close_device(gst_verbs.ctx);
        gst_verbs.ctx = NULL;
        return GSI_ERR_SYSTEM;
    }
    return GSI_OK;
}

int gst_verbs_usable(const char *hca)
{
    struct ibv_device **list;
    char want[64] = "";
    int n = 0, found = 0, want_port = 0;

    if (hca && *hca && strcmp(hca, "auto") != 0)
        parse_hca(hca, want, sizeof(want), &want_port);
    list = ibv_get_device_list(&n);
    for (int i = 0; list && i < n && !found; i++) {
        struct ibv_port_attr attr;
        struct ibv_context *ctx;

        if (*want && strcmp(ibv_get_device_name(list[i]), want) != 0)
            continue;
        ctx = ibv_open_device(list[i]);
        if (!ctx)
            continue;
        found = active_port(ctx, want_port, &attr) != 0;
        ibv_close_device(ctx);
    }
    if (list)
        ibv_free_device_list(list);
    return found;
}

void gst_verbs_describe(char *buf, size_t len)
{
    struct ibv_device **list;
    size_t at = 0;
    int n = 0;

    buf[0] = '\0';
    list = ibv_get_device_list(&n);
    if (!list || n == 0) {
        snprintf(buf, len, "no RDMA device");
        if (list)
            ibv_free_device_list(list);
        return;
    }
    for (int i = 0; i < n && at < len; i++) {
        struct ibv_context *ctx = ibv_open_device(list[i]);
        struct ibv_device_attr attr;
        struct ibv_port_attr pattr;
        int port = 0;

        if (ctx && ibv_query_device(ctx, &attr) == 0)
            port = active_port(ctx, 0, &pattr);
        at += (size_t)snprintf(buf + at, len - at,
                               "%s%s (%s; atomics %s; 4-byte and bitwise atomics by "
                               "compare-and-swap loop)",
                               i ? ", " : "", ibv_get_device_name(list[i]),
                               !ctx   ? "cannot open"
                               : port ? "port active"
                                      : "no active port",
                               !ctx || attr.atomic_cap == IBV_ATOMIC_NONE ? "none"
                               : attr.atomic_cap == IBV_ATOMIC_GLOB
                                   ? "8-byte, global"
                                   : "8-byte, HCA only: every atomic goes through it");
        if (ctx)
            ibv_close_device(ctx);
    }
    ibv_free_device_list(list);
}

#else

#include <stdio.h>

#include "net/verbs/verbs_dev.h"

int gst_verbs_usable(const char *hca)
{
    (void)hca;
    return 0;
}

void gst_verbs_describe(char *buf, size_t len)
{
    snprintf(buf, len, "not built (install libibverbs-dev and rebuild)");
}

#endif
