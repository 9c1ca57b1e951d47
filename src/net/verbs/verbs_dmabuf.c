/* src/net/verbs/verbs_dmabuf.c - registering the GPU heap for RDMA.
 *
 * The NIC reaches GPU memory through a dma-buf: the CUDA driver exports the
 * range as a file descriptor (cuMemGetHandleForAddressRange with
 * CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD) and ibv_reg_dmabuf_mr registers it at
 * the range's own address as IOVA, so remote addresses stay the symmetric
 * ones.  Where the driver or kernel has no dma-buf export, ibv_reg_mr on the
 * device pointer works when the nvidia_peermem module is loaded.  The driver
 * is dlopen'd here (a transport includes no GPU header of the core).
 * Compiled, not run: no machine of this project has had a GPU and an RDMA
 * device together. */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

#include "net/verbs/verbs_dmabuf.h"
#include "net/verbs/verbs_state.h"

/* The driver API's values (cuda.h), written out so this builds without it. */
#define CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD 0x1
#define CUDA_SUCCESS 0

static gst_verbs_get_handle_fn_t get_handle;
static int looked_up;

void gst_verbs_dmabuf_set_driver(gst_verbs_get_handle_fn_t fn)
{
    get_handle = fn;
    looked_up = 1;
}

static gst_verbs_get_handle_fn_t driver(void)
{
    if (!looked_up) {
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

        looked_up = 1;
        if (lib)
            *(void **)(void *)&get_handle = dlsym(lib, "cuMemGetHandleForAddressRange");
    }
    return get_handle;
}

static int peermem_loaded(void)
{
    return access("/sys/module/nvidia_peermem", F_OK) == 0 ||
           access("/sys/module/nv_peer_mem", F_OK) == 0;
}

int gst_verbs_cuda_registrable(char *why, size_t whylen)
{
    if (driver() || peermem_loaded())
        return 1;
    snprintf(why, whylen,
             "the CUDA driver exports no dma-buf (cuMemGetHandleForAddressRange) and "
             "nvidia_peermem is not loaded");
    return 0;
}

struct ibv_mr *gst_verbs_reg_cuda(struct ibv_pd *pd, void *addr, size_t len, int access, char *err,
                                  size_t errlen)
{
    gst_verbs_get_handle_fn_t fn = driver();
    struct ibv_mr *mr = NULL;
    int fd = -1, rc = -1;

    if (fn)
        rc = fn(&fd, (unsigned long long)(uintptr_t)addr, len, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD,
                0);
    if (rc == CUDA_SUCCESS && fd >= 0) {
        mr = ibv_reg_dmabuf_mr(pd, 0, len, (uint64_t)(uintptr_t)addr, fd, access);
        close(fd); /* the MR holds its own reference to the dma-buf */
        if (mr)
            return mr;
    }
    if (peermem_loaded() && (mr = ibv_reg_mr(pd, addr, len, access)))
        return mr;
    if (!fn)
        snprintf(err, errlen,
                 "GPU heap: the CUDA driver has no cuMemGetHandleForAddressRange "
                 "and nvidia_peermem is not loaded");
    else if (rc != CUDA_SUCCESS || fd < 0)
        snprintf(err, errlen,
                 "GPU heap: cuMemGetHandleForAddressRange(DMA_BUF_FD) failed (CUDA "
                 "error %d)%s",
                 rc, peermem_loaded() ? "" : " and nvidia_peermem is not loaded");
    else
        snprintf(err, errlen, "GPU heap: ibv_reg_dmabuf_mr of %zu bytes failed%s", len,
                 peermem_loaded() ? " and so did ibv_reg_mr through nvidia_peermem" : "");
    return NULL;
}

#endif
