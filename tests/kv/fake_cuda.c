/*
 * tests/kv/fake_cuda.c - a stand-in for the CUDA driver (libcuda.so.1),
 * built by tests/kv/kv-file-gpu.sh, so that the storage tier's GPU path
 * (libs/kv/kv_cuda.c, kv_stage.c) runs without a GPU.  The range given to
 * fake_cuda_device is "device memory": cuPointerGetAttribute says so, and
 * it is PROT_NONE, so the CPU faults on any touch but the fake's own
 * copies (which count their bytes).  Other addresses are host memory the
 * driver never saw (CUDA_ERROR_INVALID_VALUE, as the real driver says).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define FAKE_CTX ((void *)0x7ac7)

static uintptr_t lo, hi;
static size_t to_host, to_device;

void fake_cuda_device(void *base, size_t len)
{
    lo = (uintptr_t)base, hi = lo + len;
    mprotect(base, len, PROT_NONE);
}

/* Device memory the test may read again (its check), or not. */
void fake_cuda_touch(int on)
{
    mprotect((void *)lo, hi - lo, on ? PROT_READ | PROT_WRITE : PROT_NONE);
}

size_t fake_cuda_bytes(int device_bound)
{
    return device_bound ? to_device : to_host;
}

int cuInit(unsigned flags)
{
    (void)flags;
    return 0;
}

int cuPointerGetAttribute(void *data, int attribute, uintptr_t ptr)
{
    if (ptr < lo || ptr >= hi)
        return 1;              /* CUDA_ERROR_INVALID_VALUE */
    if (attribute == 2) {      /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
        *(unsigned *)data = 2; /* CU_MEMORYTYPE_DEVICE */
        return 0;
    }
    if (attribute == 1) { /* CU_POINTER_ATTRIBUTE_CONTEXT */
        *(void **)data = FAKE_CTX;
        return 0;
    }
    return 1;
}

int cuCtxSetCurrent(void *ctx)
{
    return ctx == FAKE_CTX ? 0 : 201; /* CUDA_ERROR_INVALID_CONTEXT */
}

int cuMemcpyDtoH_v2(void *dst, uintptr_t src, size_t n)
{
    if (src < lo || src + n > hi)
        return 1;
    fake_cuda_touch(1);
    memcpy(dst, (const void *)src, n);
    fake_cuda_touch(0);
    to_host += n;
    return 0;
}

int cuMemcpyHtoD_v2(uintptr_t dst, const void *src, size_t n)
{
    if (dst < lo || dst + n > hi)
        return 1;
    fake_cuda_touch(1);
    memcpy((void *)dst, src, n);
    fake_cuda_touch(0);
    to_device += n;
    return 0;
}
