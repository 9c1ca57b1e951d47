/*
 * libs/kv/kv_cuda.h - GPU memory in layouts: whether an address is device
 * memory, and the copies that stage device blocks through host memory for
 * the storage tier.  The CUDA driver (libcuda.so.1) is opened at the first
 * question, never linked: a process without it has no device memory, and
 * every address is host memory.
 */
#ifndef KV_CUDA_H
#define KV_CUDA_H

#include <stddef.h>

/* 1 when ptr is CUDA device memory (CU_MEMORYTYPE_DEVICE), else 0 (host
 * memory, pinned or managed memory the CPU may touch, no driver). */
int kv_cuda_is_device(const void *ptr);
/* Device -> host and host -> device on the calling thread (the device
 * memory's own context made current first): 0, or -1 with why in err. */
int kv_cuda_to_host(void *dst, const void *dev, size_t n, char *err, size_t errlen);
int kv_cuda_to_device(void *dev, const void *src, size_t n, char *err, size_t errlen);

/* A dma-buf of the device range [dev, dev + n) (both aligned to the host
 * page) for an RDMA registration (kv_verbs.c): 0 with the fd in *fd, or
 * -1 with why in err. */
int kv_cuda_dmabuf(const void *dev, size_t n, int *fd, char *err, size_t errlen);

#endif /* KV_CUDA_H */
