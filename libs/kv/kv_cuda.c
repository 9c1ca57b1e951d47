/*
 * libs/kv/kv_cuda.c - see kv_cuda.h.  The driver's entry points are found
 * with dlsym, once; the library neither links nor includes CUDA, so it
 * builds and runs the same with and without it (a test points it at a
 * stand-in driver: tests/kv/fake_cuda.c).
 */
#include "kv_cuda.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* The driver API's values used here (cuda.h). */
#define KV_CU_POINTER_ATTRIBUTE_CONTEXT 1
#define KV_CU_POINTER_ATTRIBUTE_MEMORY_TYPE 2
#define KV_CU_MEMORYTYPE_DEVICE 2

typedef int (*init_fn_t)(unsigned);
typedef int (*attr_fn_t)(void *, int, uintptr_t);
typedef int (*ctx_fn_t)(void *);
typedef int (*dtoh_fn_t)(void *, uintptr_t, size_t);
typedef int (*htod_fn_t)(uintptr_t, const void *, size_t);
typedef int (*handle_fn_t)(void *, unsigned long long, size_t, int, unsigned long long);

#define KV_CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD 1

static struct {
    int usable;
    attr_fn_t attr;
    ctx_fn_t set_ctx;
    dtoh_fn_t dtoh;
    htod_fn_t htod;
    handle_fn_t handle; /* cuMemGetHandleForAddressRange (CUDA 11.7 on); may be NULL */
} cu;
static pthread_once_t cu_once = PTHREAD_ONCE_INIT;

static void cu_open(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    init_fn_t init;

    if (!h)
        return;
    init = (init_fn_t)dlsym(h, "cuInit");
    cu.attr = (attr_fn_t)dlsym(h, "cuPointerGetAttribute");
    cu.set_ctx = (ctx_fn_t)dlsym(h, "cuCtxSetCurrent");
    cu.dtoh = (dtoh_fn_t)dlsym(h, "cuMemcpyDtoH_v2");
    cu.htod = (htod_fn_t)dlsym(h, "cuMemcpyHtoD_v2");
    cu.handle = (handle_fn_t)dlsym(h, "cuMemGetHandleForAddressRange");
    /* No driver that initializes: no device memory in this process. */
    cu.usable = init && cu.attr && cu.set_ctx && cu.dtoh && cu.htod && init(0) == 0;
}

int kv_cuda_is_device(const void *ptr)
{
    unsigned type = 0;

    pthread_once(&cu_once, cu_open);
    /* Host memory the driver never saw: CUDA_ERROR_INVALID_VALUE. */
    return cu.usable && cu.attr(&type, KV_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (uintptr_t)ptr) == 0 &&
           type == KV_CU_MEMORYTYPE_DEVICE;
}

/* The device memory's context, current on this thread. */
static int bind(const void *dev, char *err, size_t errlen)
{
    void *ctx = NULL;
    int e;

    if (!cu.usable) {
        snprintf(err, errlen, "no CUDA driver in this process");
        return -1;
    }
    if ((e = cu.attr(&ctx, KV_CU_POINTER_ATTRIBUTE_CONTEXT, (uintptr_t)dev)) != 0 ||
        (e = cu.set_ctx(ctx)) != 0) {
        snprintf(err, errlen, "the context of device memory %p: CUDA error %d", dev, e);
        return -1;
    }
    return 0;
}

int kv_cuda_to_host(void *dst, const void *dev, size_t n, char *err, size_t errlen)
{
    int e;

    if (bind(dev, err, errlen) != 0)
        return -1;
    if ((e = cu.dtoh(dst, (uintptr_t)dev, n)) != 0) {
        snprintf(err, errlen, "cuMemcpyDtoH of %zu bytes from %p: CUDA error %d", n, dev, e);
        return -1;
    }
    return 0;
}

int kv_cuda_to_device(void *dev, const void *src, size_t n, char *err, size_t errlen)
{
    int e;

    if (bind(dev, err, errlen) != 0)
        return -1;
    if ((e = cu.htod((uintptr_t)dev, src, n)) != 0) {
        snprintf(err, errlen, "cuMemcpyHtoD of %zu bytes to %p: CUDA error %d", n, dev, e);
        return -1;
    }
    return 0;
}

int kv_cuda_dmabuf(const void *dev, size_t n, int *fd, char *err, size_t errlen)
{
    int e;

    pthread_once(&cu_once, cu_open);
    if (!cu.usable || !cu.handle) {
        snprintf(err, errlen, "%s",
                 cu.usable ? "the CUDA driver has no cuMemGetHandleForAddressRange"
                           : "no CUDA driver in this process");
        return -1;
    }
    *fd = -1;
    if ((e = cu.handle(fd, (unsigned long long)(uintptr_t)dev, n,
                       KV_CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0)) != 0 ||
        *fd < 0) {
        snprintf(err, errlen,
                 "cuMemGetHandleForAddressRange(DMA_BUF_FD) of %zu bytes at %p: CUDA error %d", n,
                 dev, e);
        return -1;
    }
    return 0;
}
