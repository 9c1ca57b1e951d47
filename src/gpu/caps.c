/* src/gpu/caps.c - what each path can do on the device heap, checked once
 * at init (see caps.h). */
#include "config.h"
#include "gpu/caps.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "base/log.h"
#include "core/pe.h"

static const char *mem_name(gst_mem_type_t mem)
{
    return mem == GST_MEM_CUDA ? "CUDA" : "host";
}

/* "puts, gets or atomics" for the bits of `missing`. */
static void list_missing(unsigned missing, char *out, size_t len)
{
    static const struct {
        unsigned bit;
        const char *what;
    } ops[] = {{GST_CAP_PUT, "puts"}, {GST_CAP_GET, "gets"}, {GST_CAP_AMO, "atomics"}};
    int n = 0, left = 0;
    size_t at = 0;

    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        left += (missing & ops[i].bit) != 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]) && at < len; i++) {
        if (!(missing & ops[i].bit))
            continue;
        n++;
        at += (size_t)snprintf(out + at, len - at, "%s%s",
                               n == 1 ? "" : (n == left ? " or " : ", "), ops[i].what);
    }
}

int gsi_caps_decide(const gsi_caps_job_t *job, char *line, size_t len)
{
    unsigned missing = GSI_CAPS_PROXY_NEEDS & ~job->net_caps;
    char what[64], how[256];
    int pe = -1;

    if (!missing)
        return -1;
    for (int p = 0; p < job->n_pes && pe < 0; p++)
        if (job->via_proxy[p])
            pe = p;
    if (pe < 0)
        return -1;
    list_missing(missing, what, sizeof(what));
    /* Only what this tree offers: a UCX with CUDA support (and GPUDirect
     * RDMA for atomics), or load/store for a peer of this host. */
    if (job->heap_mem == GST_MEM_CUDA && (missing & (GST_CAP_PUT | GST_CAP_GET)))
        snprintf(how, sizeof(how),
                 "build UCX with --with-cuda (atomics also need an RDMA NIC with GPUDirect "
                 "RDMA, nvidia_peermem)");
    else if (job->heap_mem == GST_MEM_CUDA && strcmp(job->net_name, "node") == 0)
        snprintf(how, sizeof(how),
                 "the node transport's atomics on GPU memory need the GPUs to have native "
                 "atomics between them (the same GPU, NVLink)");
    else if (job->heap_mem == GST_MEM_CUDA)
        snprintf(how, sizeof(how),
                 "atomics on GPU memory need UCX over an RDMA NIC with GPUDirect RDMA "
                 "(nvidia_peermem)");
    else
        snprintf(how, sizeof(how), "use a transport that can");
    snprintf(line, len,
             "the device heap is %s memory and PE %d is reached through transport %s, which "
             "cannot do %s on %s memory (%s): %s%s",
             mem_name(job->heap_mem), pe, job->net_name, what, mem_name(job->heap_mem),
             job->net_why && job->net_why[0] ? job->net_why : "it does not say why", how,
             job->same_host[pe] ? ", or unset GSHMEM_DISABLE_P2P so that the PEs of this host "
                                  "reach each other by load/store"
                                : "");
    return pe;
}

gsi_p2p_atomics_t gsi_caps_p2p_atomics(int same_device, int query_ok, int native)
{
    if (same_device)
        return GSI_P2P_ATOMICS_NATIVE;
    if (!query_ok)
        return GSI_P2P_ATOMICS_UNKNOWN;
    return native ? GSI_P2P_ATOMICS_NATIVE : GSI_P2P_ATOMICS_NONE;
}

void gsi_caps_p2p_line(gsi_p2p_atomics_t verdict, int pe, const char *peer_gpu, const char *my_gpu,
                       char *line, size_t len)
{
    const char *instead = "set GSHMEM_DISABLE_P2P=1 to reach the PEs of this host through the "
                          "proxy and the network transport instead";

    if (verdict == GSI_P2P_ATOMICS_UNKNOWN)
        snprintf(line, len,
                 "PE %d's device heap is on GPU %s, which this process cannot see, so whether "
                 "this PE's GPU %s has native atomics on it is unknown: make the same GPUs "
                 "visible to every PE of the host (CUDA_VISIBLE_DEVICES), or %s",
                 pe, peer_gpu, my_gpu, instead);
    else
        snprintf(line, len,
                 "PE %d's device heap, on GPU %s, would be mapped here for load/store, but "
                 "this PE's GPU %s has no native atomics on it "
                 "(CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED is 0: PCIe without "
                 "atomics?), so device atomics, signals and barriers to PE %d would not be "
                 "atomic: %s",
                 pe, peer_gpu, my_gpu, pe, instead);
}

void gsi_caps_check_device(const char *fn, const gsi_devmem_ops_t *mem)
{
    const gsi_region_t *heap = &gsi_pe.region[GSI_REGION_HEAP];
    gsi_caps_job_t job = {.heap_mem = mem->heap_mem,
                          .n_pes = gsi_pe.n_pes,
                          .net_name = gsi_pe.net->name};
    char *via = calloc((size_t)gsi_pe.n_pes, 2), why[256] = "", line[1024];
    int pe;

    if (!via)
        gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_pes);
    /* The device heap's peers are the host heap's: a PE whose host heap is
     * not mapped here is reached through the proxy (src/gpu/proxy.c). */
    for (int p = 0; p < gsi_pe.n_pes; p++)
        via[p] = p != gsi_pe.my_pe && !(heap->peer && heap->peer[p]);
    for (int i = 0; i < gsi_pe.n_node; i++)
        via[gsi_pe.n_pes + gsi_pe.node_pes[i]] = 1;
    job.via_proxy = via;
    job.same_host = via + gsi_pe.n_pes;
    job.net_caps = gsi_pe.net->caps ? gsi_pe.net->caps(mem->heap_mem, why, sizeof(why)) : 0;
    job.net_why = why;
    pe = gsi_caps_decide(&job, line, sizeof(line));
    free(via);
    if (pe >= 0)
        gsi_fatal(fn, "%s", line);
}
