/* Unit test of the node transport's GPU half (src/gpu/cuda/cuda_copy.c)
 * against a fake driver, no GPU: through the transport's ops (the hook
 * gsi_cuda_node_start hands down), copies go to cuMemcpyAsync on the
 * library's stream and quiet synchronizes it; an atomic launches the PTX
 * kernel with its arguments in the kernel's order and returns the old
 * value the kernel wrote; the kernel is loaded at start, not at the first
 * atomic; and without native atomics between the GPUs the hook has none
 * and says why. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "gpu/cuda/cuda.h"
#include "gpu/cuda/cuda_driver.h"
#include "net/node/node.h"
#include "net/transport.h"

#define N 2
#define REGION 2

static int ctx_obj, stream_obj, module_obj, func_obj;
static CUcontext current;
static int n_memcpy, n_sync, n_load, n_launch;
static uint64_t ret_word; /* the fake "device" word the kernel writes */
static struct {
    CUdeviceptr at;
    uint32_t op, size;
    uint64_t value, compare;
    CUdeviceptr ret;
} launched;

static CUresult fake_get_current(CUcontext *ctx)
{
    *ctx = current;
    return CUDA_SUCCESS;
}

static CUresult fake_set_current(CUcontext ctx)
{
    current = ctx;
    return CUDA_SUCCESS;
}

static CUresult fake_capture_mode(CUstreamCaptureMode *mode)
{
    (void)mode;
    return CUDA_SUCCESS;
}

static CUresult fake_stream_create(CUstream *s, unsigned flags)
{
    cr_expect_eq(flags, CU_STREAM_NON_BLOCKING, "the library's stream blocks on stream 0");
    *s = (CUstream)(void *)&stream_obj;
    return CUDA_SUCCESS;
}

static CUresult fake_stream_destroy(CUstream s)
{
    (void)s;
    return CUDA_SUCCESS;
}

/* Host addresses stand in for device ones: a plain copy. */
static CUresult fake_memcpy_async(CUdeviceptr dst, CUdeviceptr src, size_t len, CUstream s)
{
    cr_expect_eq(s, (CUstream)(void *)&stream_obj, "a copy off the library's stream");
    memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, len);
    n_memcpy++;
    return CUDA_SUCCESS;
}

static CUresult fake_stream_sync(CUstream s)
{
    (void)s;
    n_sync++;
    return CUDA_SUCCESS;
}

static CUresult fake_module_load(CUmodule *m, const void *image)
{
    cr_expect(strstr(image, ".entry gsi_node_amo") != NULL, "the image is not the PTX kernel");
    *m = (CUmodule)(void *)&module_obj;
    n_load++;
    return CUDA_SUCCESS;
}

static CUresult fake_get_function(CUfunction *f, CUmodule m, const char *name)
{
    cr_expect_eq(m, (CUmodule)(void *)&module_obj);
    cr_expect_str_eq(name, "gsi_node_amo");
    *f = (CUfunction)(void *)&func_obj;
    return CUDA_SUCCESS;
}

static CUresult fake_module_unload(CUmodule m)
{
    (void)m;
    return CUDA_SUCCESS;
}

static CUresult fake_mem_alloc(CUdeviceptr *p, size_t size)
{
    cr_expect_eq(size, 8);
    *p = (CUdeviceptr)(uintptr_t)&ret_word;
    return CUDA_SUCCESS;
}

static CUresult fake_mem_free(CUdeviceptr p)
{
    (void)p;
    return CUDA_SUCCESS;
}

/* The kernel's parameters, in its order: (at, op, size, value, compare,
 * ret); it "runs" a 64-bit fetch-add. */
static CUresult fake_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                            unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params,
                            void **extra)
{
    uint64_t *word;

    cr_expect_eq(f, (CUfunction)(void *)&func_obj);
    cr_expect(gx == 1 && gy == 1 && gz == 1 && bx == 1 && by == 1 && bz == 1 && shmem == 0,
              "not one thread");
    cr_expect_eq(s, (CUstream)(void *)&stream_obj, "the atomic is off the copies' stream");
    cr_expect_null(extra);
    memcpy(&launched.at, params[0], sizeof(launched.at));
    memcpy(&launched.op, params[1], sizeof(launched.op));
    memcpy(&launched.size, params[2], sizeof(launched.size));
    memcpy(&launched.value, params[3], sizeof(launched.value));
    memcpy(&launched.compare, params[4], sizeof(launched.compare));
    memcpy(&launched.ret, params[5], sizeof(launched.ret));
    word = (uint64_t *)(uintptr_t)launched.at;
    *(uint64_t *)(uintptr_t)launched.ret = *word;
    *word += launched.value;
    n_launch++;
    return CUDA_SUCCESS;
}

static int fake_allgather(const void *in, void *out, size_t len)
{
    for (int pe = 0; pe < N; pe++)
        memcpy((char *)out + (size_t)pe * len, in, len);
    return 0;
}

static char net_peer[N] = {0, 1}, same_host[N] = {1, 1};
static int pid[N] = {1, 2};
static uint64_t peer_heap[64], my_heap[64];
static char err[512], why[512];

static void fake_driver(void)
{
    gst_init_args_t a = {.my_pe = 0,
                         .n_pes = N,
                         .n_regions = 0,
                         .net_peer = net_peer,
                         .same_host = same_host,
                         .peer_pid = pid,
                         .allgather = fake_allgather};

    memset(&gsi_cu, 0, sizeof(gsi_cu));
    gsi_cu.p_cuCtxGetCurrent = fake_get_current;
    gsi_cu.p_cuCtxSetCurrent = fake_set_current;
    gsi_cu.p_cuThreadExchangeStreamCaptureMode = fake_capture_mode;
    gsi_cu.p_cuStreamCreate = fake_stream_create;
    gsi_cu.p_cuStreamDestroy = fake_stream_destroy;
    gsi_cu.p_cuMemcpyAsync = fake_memcpy_async;
    gsi_cu.p_cuStreamSynchronize = fake_stream_sync;
    gsi_cu.p_cuModuleLoadData = fake_module_load;
    gsi_cu.p_cuModuleGetFunction = fake_get_function;
    gsi_cu.p_cuModuleUnload = fake_module_unload;
    gsi_cu.p_cuLaunchKernel = fake_launch;
    gsi_cu.p_cuMemAlloc = fake_mem_alloc;
    gsi_cu.p_cuMemFree = fake_mem_free;
    gsi_cuda.ctx = (CUcontext)(void *)&ctx_obj;
    current = NULL;
    n_memcpy = n_sync = n_load = n_launch = 0;
    memset(peer_heap, 0, sizeof(peer_heap));
    cr_assert_eq(gst_node_ops.init(&a, err, sizeof(err)), GSI_OK, "init: %s", err);
    cr_assert_eq(gst_node_map_peer(REGION, 1, peer_heap, sizeof(peer_heap)), GSI_OK);
    cr_assert_eq(gst_node_ops.map_region(REGION, my_heap, sizeof(my_heap), GST_MEM_CUDA, err,
                                         sizeof(err)),
                 GSI_OK, "map_region: %s", err);
}

static void stop(void)
{
    gsi_cuda_node_stop();
    gst_node_ops.finalize();
    gsi_cuda.ctx = NULL;
}

Test(cuda_node, copies_go_on_the_library_stream_and_quiet_syncs_it, .init = fake_driver,
     .fini = stop)
{
    uint64_t v = 0x1122334455667788ULL, back = 0;

    gsi_cuda_node_start(NULL);
    cr_expect_eq(n_load, 1, "the atomics kernel is not loaded at start");
    cr_expect_eq(gst_node_ops.put_nbi(1, REGION, 24, &v, sizeof(v)), GSI_OK);
    cr_expect_eq(n_memcpy, 1);
    cr_expect_eq(peer_heap[3], v);
    cr_expect_eq(n_sync, 0, "put_nbi waited");
    cr_expect_eq(gst_node_ops.quiet(), GSI_OK);
    cr_expect_eq(n_sync, 1, "quiet did not synchronize the stream");
    cr_expect_eq(gst_node_ops.get(&back, 1, REGION, 24, sizeof(back)), GSI_OK);
    cr_expect_eq(back, v);
    cr_expect_eq(current, gsi_cuda.ctx, "the PE's context was not made current");
}

Test(cuda_node, an_atomic_is_a_kernel_with_its_arguments_in_order, .init = fake_driver,
     .fini = stop)
{
    uint64_t add = 5, cmp = 9, old = 0;
    unsigned caps;

    gsi_cuda_node_start(NULL);
    caps = gst_node_ops.caps(GST_MEM_CUDA, why, sizeof(why));
    cr_expect_eq(caps, GST_CAP_ALL, "caps %#x: %s", caps, why);
    peer_heap[5] = 100;
    cr_expect_eq(gst_node_ops.amo(1, REGION, 40, GST_AMO_FADD, 8, &add, &cmp, &old), GSI_OK);
    cr_expect_eq(n_launch, 1);
    cr_expect_eq(launched.at, (CUdeviceptr)(uintptr_t)&peer_heap[5]);
    cr_expect_eq(launched.op, (uint32_t)GST_AMO_FADD);
    cr_expect_eq(launched.size, 8);
    cr_expect_eq(launched.value, 5);
    cr_expect_eq(launched.compare, 9);
    cr_expect_eq(launched.ret, (CUdeviceptr)(uintptr_t)&ret_word);
    cr_expect_eq(old, 100, "the old value did not come back: %llu", (unsigned long long)old);
    cr_expect_eq(peer_heap[5], 105);
    cr_expect_eq(n_load, 1, "the kernel was loaded again");
}

Test(cuda_node, a_fetch_without_operand_reads_nothing_from_null, .init = fake_driver,
     .fini = stop)
{
    uint64_t old = 0;

    gsi_cuda_node_start(NULL);
    peer_heap[1] = 77;
    cr_expect_eq(gst_node_ops.amo(1, REGION, 8, GST_AMO_FETCH, 8, NULL, NULL, &old), GSI_OK);
    cr_expect_eq(launched.value, 0);
    cr_expect_eq(old, 77);
}

Test(cuda_node, without_native_atomics_the_hook_has_none_and_says_why, .init = fake_driver,
     .fini = stop)
{
    uint64_t one = 1;
    unsigned caps;

    gsi_cuda_node_start("PE 1's GPU and this PE's have no native atomics between them");
    cr_expect_eq(n_load, 0, "the kernel was loaded though unused");
    caps = gst_node_ops.caps(GST_MEM_CUDA, why, sizeof(why));
    cr_expect_eq(caps, GST_CAP_PUT | GST_CAP_GET, "caps %#x", caps);
    cr_expect(strstr(why, "no native atomics between them") != NULL, "why: %s", why);
    cr_expect_eq(gst_node_ops.amo(1, REGION, 8, GST_AMO_FADD, 8, &one, NULL, NULL),
                 GSI_ERR_UNSUPPORTED);
    cr_expect_eq(n_launch, 0);
}

Test(cuda_node, a_driver_without_launch_gives_no_atomics, .init = fake_driver, .fini = stop)
{
    unsigned caps;

    gsi_cu.p_cuLaunchKernel = NULL;
    gsi_cuda_node_start(NULL);
    caps = gst_node_ops.caps(GST_MEM_CUDA, why, sizeof(why));
    cr_expect_eq(caps, GST_CAP_PUT | GST_CAP_GET, "caps %#x", caps);
    cr_expect(strstr(why, "lacks the module and launch functions") != NULL, "why: %s", why);
}
