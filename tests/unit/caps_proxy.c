/* Unit tests of the device init's transport check (src/gpu/caps.c,
 * gsi_caps_decide): a job whose proxy peers need what the transport cannot
 * do on the device heap's memory is refused, with a line naming the peer,
 * what lacks and why; any other job passes.  The transports' capabilities
 * are fakes. */
#include <criterion/criterion.h>
#include <string.h>

#include "gpu/caps.h"

#define N 4

/* PE 1's view of a 4-PE job: PE 0 mapped by load/store, PEs 2 and 3 through the proxy. */
static char via[N] = {0, 0, 1, 1}, same_host[N] = {1, 1, 0, 0};
static char line[1024];

static gsi_caps_job_t job(gst_mem_type_t mem, unsigned caps, const char *why)
{
    return (gsi_caps_job_t){.heap_mem = mem,
                            .n_pes = N,
                            .via_proxy = via,
                            .same_host = same_host,
                            .net_name = "ucx",
                            .net_caps = caps,
                            .net_why = why};
}

Test(caps_proxy, host_memory_with_every_capability_passes)
{
    gsi_caps_job_t j = job(GST_MEM_HOST, GST_CAP_ALL, "");
    int pe = gsi_caps_decide(&j, line, sizeof(line));

    cr_expect_eq(pe, -1, "got PE %d (%s), expected -1", pe, line);
}

Test(caps_proxy, cuda_memory_without_cuda_support_names_the_first_proxy_peer)
{
    gsi_caps_job_t j = job(GST_MEM_CUDA, 0, "this UCX has no CUDA support");
    int pe = gsi_caps_decide(&j, line, sizeof(line));

    cr_expect_eq(pe, 2, "got PE %d, expected 2", pe);
    cr_expect(strstr(line,
                     "the device heap is CUDA memory and PE 2 is reached through "
                     "transport ucx, which cannot do puts, gets or atomics on CUDA "
                     "memory (this UCX has no CUDA support): build UCX with --with-cuda") !=
                  NULL,
              "line: %s", line);
}

Test(caps_proxy, cuda_memory_without_atomics_is_refused_for_atomics_alone)
{
    gsi_caps_job_t j = job(GST_MEM_CUDA, GST_CAP_PUT | GST_CAP_GET, "no atomics here");
    int pe = gsi_caps_decide(&j, line, sizeof(line));

    cr_expect_eq(pe, 2, "got PE %d, expected 2", pe);
    cr_expect(strstr(line, "cannot do atomics on CUDA memory (no atomics here): atomics on GPU "
                           "memory need UCX over an RDMA NIC with GPUDirect RDMA") != NULL,
              "line: %s", line);
}

Test(caps_proxy, cuda_memory_with_every_capability_passes)
{
    gsi_caps_job_t j = job(GST_MEM_CUDA, GST_CAP_ALL, "");
    int pe = gsi_caps_decide(&j, line, sizeof(line));

    cr_expect_eq(pe, -1, "got PE %d (%s), expected -1", pe, line);
}

Test(caps_proxy, no_proxy_peer_needs_nothing_of_the_transport)
{
    static const char none[N] = {0};
    gsi_caps_job_t j = job(GST_MEM_CUDA, 0, "there is no network transport");
    int pe;

    j.via_proxy = none;
    pe = gsi_caps_decide(&j, line, sizeof(line));
    cr_expect_eq(pe, -1, "got PE %d (%s), expected -1", pe, line);
}

Test(caps_proxy, a_peer_of_this_host_is_pointed_to_load_store)
{
    static const char via0[N] = {1, 0, 1, 1};
    gsi_caps_job_t j = job(GST_MEM_CUDA, 0, "this UCX has no CUDA support");
    int pe;

    j.via_proxy = via0; /* PE 0, on this host, through the proxy: GSHMEM_DISABLE_P2P=1 */
    pe = gsi_caps_decide(&j, line, sizeof(line));
    cr_expect_eq(pe, 0, "got PE %d, expected 0", pe);
    cr_expect(strstr(line, "or unset GSHMEM_DISABLE_P2P") != NULL, "line: %s", line);
}

Test(caps_proxy, a_peer_of_another_host_is_not_pointed_to_load_store)
{
    gsi_caps_job_t j = job(GST_MEM_CUDA, 0, "this UCX has no CUDA support");

    gsi_caps_decide(&j, line, sizeof(line));
    cr_expect(strstr(line, "GSHMEM_DISABLE_P2P") == NULL, "line: %s", line);
}

Test(caps_proxy, a_transport_that_cannot_do_atomics_on_host_memory_is_refused)
{
    gsi_caps_job_t j = job(GST_MEM_HOST, GST_CAP_PUT | GST_CAP_GET, "no atomics");
    int pe = gsi_caps_decide(&j, line, sizeof(line));

    cr_expect_eq(pe, 2, "got PE %d, expected 2", pe);
    cr_expect(strstr(line, "cannot do atomics on host memory (no atomics)") != NULL, "line: %s",
              line);
}
