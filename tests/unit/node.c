/* Unit tests of the node transport (src/net/node/node.c) where a real job
 * cannot show it here: a job with a PE on another host is refused at init
 * with one line, and GPU memory goes through the copy and atomic routines
 * the GPU layer hands down (a fake of them over host buffers), with
 * atomics offered only where that layer has them.  The multi-PE runs over
 * host memory are tests/pe/node.sh. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "base/memfd.h"

#include "gpu/caps.h"
#include "net/node/node.h"
#include "net/transport.h"

#define N 2
#define REGION 2 /* a region added after init, as the GPU device heap is */

static int fake_allgather(const void *in, void *out, size_t len)
{
    for (int pe = 0; pe < N; pe++)
        memcpy((char *)out + (size_t)pe * len, in, len);
    return 0;
}

static char net_peer[N] = {0, 1}, same_host[N] = {1, 1};
static int pid[N] = {1, 2};

/* PE 1's host buffer registered after init is this process's own memfd
 * (the fake allgather hands every PE this PE's card). */
static void *shared_buffer(size_t size)
{
    int fd;
    void *addr;

    cr_assert_eq(gsi_memfd_create("node-test", size, NULL, &fd, &addr), GSI_OK);
    pid[1] = (int)getpid();
    return addr;
}

static gst_init_args_t args(void)
{
    return (gst_init_args_t){.my_pe = 0,
                             .n_pes = N,
                             .n_regions = 0,
                             .net_peer = net_peer,
                             .same_host = same_host,
                             .peer_pid = pid,
                             .allgather = fake_allgather};
}

/* The fake GPU layer: copies are memcpy, counted; sync says how many were
 * pending; atomics add. */
static int n_copies, n_syncs, n_amos;

static gsi_status_t fake_copy(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
    n_copies++;
    return GSI_OK;
}

static gsi_status_t fake_sync(void)
{
    n_syncs++;
    return GSI_OK;
}

static gsi_status_t fake_amo(void *at, gst_amo_op_t op, size_t size, const void *operand,
                             const void *compare, void *fetched)
{
    uint64_t old = *(uint64_t *)at;

    (void)compare;
    cr_assert_eq(op, GST_AMO_FADD, "op %d", (int)op);
    cr_assert_eq(size, 8, "size %zu", size);
    *(uint64_t *)at = old + *(const uint64_t *)operand;
    if (fetched)
        *(uint64_t *)fetched = old;
    n_amos++;
    return GSI_OK;
}

static uint64_t peer_heap[64]; /* PE 1's "GPU memory", mapped here */
static uint64_t my_heap[64];
static char err[512], why[512];

static void up(const gst_node_dev_t *dev)
{
    gst_init_args_t a = args();

    n_copies = n_syncs = n_amos = 0;
    memset(peer_heap, 0, sizeof(peer_heap));
    gst_node_set_dev(dev);
    cr_assert_eq(gst_node_ops.init(&a, err, sizeof(err)), GSI_OK, "init: %s", err);
    cr_assert_eq(gst_node_map_peer(REGION, 1, peer_heap, sizeof(peer_heap)), GSI_OK);
    cr_assert_eq(gst_node_ops.map_region(REGION, my_heap, sizeof(my_heap), GST_MEM_CUDA, err,
                                         sizeof(err)),
                 GSI_OK, "map_region: %s", err);
}

static void down(void)
{
    gst_node_ops.finalize();
    gst_node_set_dev(NULL);
}

Test(node, a_peer_on_another_host_is_refused_at_init_with_one_line)
{
    static char other[N] = {1, 0};
    gst_init_args_t a = args();

    a.same_host = other;
    cr_expect_eq(gst_node_ops.init(&a, err, sizeof(err)), GSI_ERR_NO_TRANSPORT);
    cr_expect_str_eq(err, "PE 1 runs on another host, and the node transport reaches only PEs "
                          "of this host (use GSHMEM_TRANSPORT=auto, ucx or verbs)");
    cr_expect_eq(gst_node_active(), 0);
}

Test(node, gpu_memory_goes_through_the_copy_routine_and_quiet_waits_for_it)
{
    static const gst_node_dev_t dev = {.copy = fake_copy, .sync = fake_sync, .amo = fake_amo};
    uint64_t v = 42, back = 0;

    up(&dev);
    cr_expect_eq(gst_node_ops.put_nbi(1, REGION, 8, &v, sizeof(v)), GSI_OK);
    cr_expect_eq(n_copies, 1);
    cr_expect_eq(n_syncs, 0, "a put_nbi waited");
    cr_expect_eq(gst_node_ops.quiet(), GSI_OK);
    cr_expect_eq(n_syncs, 1, "quiet did not wait for the copy");
    cr_expect_eq(gst_node_ops.quiet(), GSI_OK);
    cr_expect_eq(n_syncs, 1, "quiet waited with nothing pending");
    cr_expect_eq(peer_heap[1], 42);
    cr_expect_eq(gst_node_ops.get(&back, 1, REGION, 8, sizeof(back)), GSI_OK);
    cr_expect_eq(back, 42);
    cr_expect_eq(n_syncs, 2, "a blocking get did not wait");
    down();
}

Test(node, gpu_memory_past_the_mapping_is_invalid)
{
    static const gst_node_dev_t dev = {.copy = fake_copy, .sync = fake_sync, .amo = fake_amo};
    uint64_t v = 1;

    up(&dev);
    cr_expect_eq(gst_node_ops.put(1, REGION, sizeof(peer_heap) - 4, &v, sizeof(v)),
                 GSI_ERR_INVALID);
    cr_expect_eq(n_copies, 0);
    down();
}

Test(node, gpu_atomics_go_to_the_gpu_layer_where_it_has_them)
{
    static const gst_node_dev_t dev = {.copy = fake_copy, .sync = fake_sync, .amo = fake_amo};
    uint64_t one = 1, old = 99;

    up(&dev);
    cr_expect_eq(gst_node_ops.caps(GST_MEM_CUDA, why, sizeof(why)), GST_CAP_ALL);
    cr_expect_eq(gst_node_ops.amo(1, REGION, 16, GST_AMO_FADD, 8, &one, NULL, &old), GSI_OK);
    cr_expect_eq(gst_node_ops.amo(1, REGION, 16, GST_AMO_FADD, 8, &one, NULL, &old), GSI_OK);
    cr_expect_eq(old, 1);
    cr_expect_eq(peer_heap[2], 2);
    cr_expect_eq(n_amos, 2);
    down();
}

Test(node, without_gpu_atomics_the_device_job_is_refused_with_the_reason)
{
    static const gst_node_dev_t dev = {.copy = fake_copy,
                                       .sync = fake_sync,
                                       .amo = NULL,
                                       .no_amo = "the GPUs have no native atomics"};
    static const char via[N] = {0, 1};
    uint64_t one = 1;
    unsigned caps;
    gsi_caps_job_t job;
    char line[1024];

    up(&dev);
    caps = gst_node_ops.caps(GST_MEM_CUDA, why, sizeof(why));
    cr_expect_eq(caps, GST_CAP_PUT | GST_CAP_GET, "caps %#x", caps);
    cr_expect(strstr(why, "the GPUs have no native atomics") != NULL, "why: %s", why);
    cr_expect_eq(gst_node_ops.amo(1, REGION, 16, GST_AMO_FADD, 8, &one, NULL, NULL),
                 GSI_ERR_UNSUPPORTED);
    job = (gsi_caps_job_t){.heap_mem = GST_MEM_CUDA,
                           .n_pes = N,
                           .via_proxy = via,
                           .same_host = same_host,
                           .net_name = "node",
                           .net_caps = caps,
                           .net_why = why};
    cr_expect_eq(gsi_caps_decide(&job, line, sizeof(line)), 1);
    cr_expect(strstr(line, "PE 1 is reached through transport node, which cannot do atomics on "
                           "CUDA memory") != NULL,
              "line: %s", line);
    cr_expect(strstr(line, "native atomics between them") != NULL, "line: %s", line);
    down();
}

Test(node, without_the_gpu_layer_gpu_memory_is_not_offered)
{
    unsigned caps;

    up(NULL);
    caps = gst_node_ops.caps(GST_MEM_CUDA, why, sizeof(why));
    cr_expect_eq(caps, 0, "caps %#x", caps);
    cr_expect_eq(gst_node_ops.caps(GST_MEM_HOST, why, sizeof(why)), GST_CAP_ALL);
    down();
}

Test(node, with_a_gpu_layer_host_regions_are_copied_by_it_too)
{
    static const gst_node_dev_t dev = {.copy = fake_copy, .sync = fake_sync, .amo = fake_amo};
    uint64_t *buf = shared_buffer(4096), v = 7, back = 0;

    up(&dev);
    cr_assert_eq(gst_node_ops.map_region(REGION + 1, buf, 4096, GST_MEM_HOST, err, sizeof(err)),
                 GSI_OK, "map_region: %s", err);
    cr_expect_eq(gst_node_ops.put(1, REGION + 1, 16, &v, sizeof(v)), GSI_OK);
    cr_expect_eq(buf[2], 7, "the put did not reach the peer's mapping of the buffer");
    cr_expect_eq(gst_node_ops.get(&back, 1, REGION + 1, 16, sizeof(back)), GSI_OK);
    cr_expect_eq(back, 7);
    cr_expect_eq(n_copies, 2, "a local side in GPU memory would have been memcpy'd");
    cr_expect_eq(n_syncs, 2,
                 "the blocking put and get (either side maybe GPU memory) did not wait");
    down();
}

Test(node, without_a_gpu_layer_host_regions_are_memcpy_and_cpu_atomics)
{
    uint64_t *buf = shared_buffer(4096), v = 5, old = 0;

    up(NULL);
    cr_assert_eq(gst_node_ops.map_region(REGION + 1, buf, 4096, GST_MEM_HOST, err, sizeof(err)),
                 GSI_OK, "map_region: %s", err);
    cr_expect_eq(gst_node_ops.put(1, REGION + 1, 8, &v, sizeof(v)), GSI_OK);
    cr_expect_eq(gst_node_ops.amo(1, REGION + 1, 8, GST_AMO_FADD, 8, &v, NULL, &old), GSI_OK);
    cr_expect_eq(old, 5);
    cr_expect_eq(buf[1], 10);
    cr_expect_eq(n_copies, 0);
    down();
}
