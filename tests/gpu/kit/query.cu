// tests/gpu/kit/query.cu - the device attributes gshmem relies on, for the
// GPU kit's report (tests/gpu/kit.sh prepare builds it into the bundle).
// Exit 0 when every attribute the code needs is there, 1 when one is not.
// `query hold`: retain GPU 0's primary context and sleep until killed, so
// that a GPU without persistence mode keeps its driver state between the
// kit's programs (each start would otherwise set the GPU up again).
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int attr(CUdevice d, CUdevice_attribute a)
{
    int v = -1;

    return cuDeviceGetAttribute(&v, a, d) == CUDA_SUCCESS ? v : -1;
}

int main(int argc, char **argv)
{
    struct {
        const char *name;
        CUdevice_attribute a;
        int needed; // the code refuses the GPU without it
    } rows[] = {
        {"unified addressing", CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1},
        {"can map host memory", CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1},
        {"virtual memory management (VMM)",
         CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1},
        {"POSIX fd handles (VMM IPC)",
         CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 0},
        {"GPUDirect RDMA with VMM", CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED,
         0},
        {"host native atomics", CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, 0},
        {"pageable memory access", CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0},
        {"cooperative launch", CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 1},
        {"compute mode (0 default, 2 prohibited, 3 exclusive process)",
         CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, 0},
        {"multiprocessors", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0},
    };
    int n = 0, drv = 0, bad = 0;
    CUdevice d;
    CUresult r = cuInit(0);

    if (r == CUDA_SUCCESS)
        r = cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS || n < 1) {
        printf("query: no GPU (cuInit/cuDeviceGetCount: error %d, %d devices)\n", (int)r, n);
        return 1;
    }
    cuDriverGetVersion(&drv);
    cuDeviceGet(&d, 0);
    if (argc > 1 && strcmp(argv[1], "hold") == 0) {
        CUcontext ctx;

        if (cuDevicePrimaryCtxRetain(&ctx, d) != CUDA_SUCCESS)
            return 1;
        for (;;)
            pause();
    }
    printf("query: driver API %d.%d, %d GPUs; GPU 0: compute capability %d.%d\n", drv / 1000,
           drv % 1000 / 10, n, attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
           attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        int v = attr(d, rows[i].a);

        printf("query:   %-62s %d%s\n", rows[i].name, v,
               rows[i].needed && v != 1 ? "  <- gshmem needs it" : "");
        bad += rows[i].needed && v != 1;
    }
    return bad ? 1 : 0;
}
