/* src/gpu/cuda/cuda_driver.h - the CUDA driver API, loaded at run time.
 *
 * libgshmem.so links no CUDA library, so that one build runs on hosts with
 * and without a GPU driver: cuda.h gives the types and prototypes only, and
 * the functions are looked up in libcuda.so.1 with dlsym.  Each row names a
 * function as cuda.h spells it; cuda.h's own macros turn that into the
 * versioned symbol the driver exports (cuMemAlloc -> cuMemAlloc_v2), so the
 * pointer's type and the symbol looked up always agree.
 *
 * Call them as GSI_CU(cuMemAlloc)(&ptr, size). */
#ifndef GSI_CUDA_DRIVER_H
#define GSI_CUDA_DRIVER_H

#include <stddef.h>
#include <cuda.h>

#include "base/status.h"

#define GSI_CU_FUNCS(X)                  \
    X(cuInit)                            \
    X(cuDriverGetVersion)                \
    X(cuGetErrorString)                  \
    X(cuDeviceGetCount)                  \
    X(cuDeviceGet)                       \
    X(cuDeviceGetAttribute)              \
    X(cuDeviceGetPCIBusId)               \
    X(cuDeviceGetByPCIBusId)             \
    X(cuDeviceGetP2PAttribute)           \
    X(cuDevicePrimaryCtxRetain)          \
    X(cuDevicePrimaryCtxRelease)         \
    X(cuCtxGetCurrent)                   \
    X(cuCtxSetCurrent)                   \
    X(cuCtxGetDevice)                    \
    X(cuCtxSynchronize)                  \
    X(cuThreadExchangeStreamCaptureMode) \
    X(cuStreamCreate)                    \
    X(cuStreamDestroy)                   \
    X(cuStreamSynchronize)               \
    X(cuStreamQuery)                     \
    X(cuMemHostAlloc)                    \
    X(cuMemHostGetDevicePointer)         \
    X(cuMemFreeHost)                     \
    X(cuMemAlloc)                        \
    X(cuMemFree)                         \
    X(cuMemsetD8Async)                   \
    X(cuMemcpyHtoDAsync)                 \
    X(cuMemcpyAsync)                     \
    X(cuMemGetAllocationGranularity)     \
    X(cuMemAddressReserve)               \
    X(cuMemAddressFree)                  \
    X(cuMemCreate)                       \
    X(cuMemRelease)                      \
    X(cuMemMap)                          \
    X(cuMemUnmap)                        \
    X(cuMemSetAccess)                    \
    X(cuMemExportToShareableHandle)      \
    X(cuMemImportFromShareableHandle)    \
    X(cuMemHostRegister)                 \
    X(cuMemHostUnregister)               \
    X(cuPointerGetAttribute)

/* Functions a driver may lack (newer than what the rest needs): their
 * pointer is NULL then, and each caller says what it does without. */
#define GSI_CU_OPTIONAL_FUNCS(X)                  \
    X(cuFlushGPUDirectRDMAWrites) /* CUDA 11.3 */ \
    X(cuModuleGetGlobal)                          \
    X(cuLibraryGetGlobal) /* CUDA 12.0 */         \
    X(cuModuleLoadData)                           \
    X(cuModuleGetFunction)                        \
    X(cuModuleUnload)                             \
    X(cuLaunchKernel)

typedef struct gsi_cu {
    void *lib; /* dlopen handle; NULL: not loaded */
#define GSI_CU_MEMBER(name) __typeof__(&name) p_##name;
    GSI_CU_FUNCS(GSI_CU_MEMBER)
    GSI_CU_OPTIONAL_FUNCS(GSI_CU_MEMBER)
#undef GSI_CU_MEMBER
} gsi_cu_t;

extern gsi_cu_t gsi_cu;

#define GSI_CU(name) (gsi_cu.p_##name)

/* dlopen libcuda.so.1, find every function (the optional ones if there), cuInit(0).  Once; later calls
 * return the first answer.  On failure one sentence in err. */
gsi_status_t gsi_cu_load(char *err, size_t errlen);

/* "CUDA_ERROR_OUT_OF_MEMORY: out of memory" style text for r. */
const char *gsi_cu_error(CUresult r);

#endif
