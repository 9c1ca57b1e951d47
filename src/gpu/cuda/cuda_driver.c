/* src/gpu/cuda/cuda_driver.c - load the CUDA driver API (see cuda_driver.h). */
#include "config.h"
#include "gpu/cuda/cuda_driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

gsi_cu_t gsi_cu;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static gsi_status_t load_status = GSI_ERR_UNSUPPORTED;
static char load_err[256];

#define GSI_CU_STR_(x) #x
#define GSI_CU_STR(x) GSI_CU_STR_(x)

static void load(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    gsi_cu_t cu = {0};
    CUresult r;

    if (!lib) {
        snprintf(load_err, sizeof(load_err), "no CUDA driver (dlopen libcuda.so.1: %s)", dlerror());
        return;
    }
    /* GSI_CU_STR expands cuda.h's macro first: the versioned symbol. */
#define GSI_CU_LOOKUP(name)                                                                \
    *(void **)(void *)&cu.p_##name = dlsym(lib, GSI_CU_STR(name));                         \
    if (!cu.p_##name) {                                                                    \
        snprintf(load_err, sizeof(load_err), "the CUDA driver lacks %s (driver too old?)", \
                 GSI_CU_STR(name));                                                        \
        dlclose(lib);                                                                      \
        return;                                                                            \
    }
    GSI_CU_FUNCS(GSI_CU_LOOKUP)
#undef GSI_CU_LOOKUP
#define GSI_CU_LOOKUP_OPTIONAL(name) *(void **)(void *)&cu.p_##name = dlsym(lib, GSI_CU_STR(name));
    GSI_CU_OPTIONAL_FUNCS(GSI_CU_LOOKUP_OPTIONAL)
#undef GSI_CU_LOOKUP_OPTIONAL
    cu.lib = lib;
    r = cu.p_cuInit(0);
    if (r != CUDA_SUCCESS) {
        const char *what = NULL;

        if (cu.p_cuGetErrorString(r, &what) != CUDA_SUCCESS || !what)
            what = "unknown error";
        snprintf(load_err, sizeof(load_err), "cuInit: %s (error %d)", what, (int)r);
        dlclose(lib);
        return;
    }
    gsi_cu = cu;
    load_status = GSI_OK;
}

gsi_status_t gsi_cu_load(char *err, size_t errlen)
{
    pthread_once(&once, load);
    if (load_status != GSI_OK && err && errlen)
        snprintf(err, errlen, "%s", load_err);
    return load_status;
}

const char *gsi_cu_error(CUresult r)
{
    static __thread char text[160];
    const char *what = NULL;

    if (!gsi_cu.lib || GSI_CU(cuGetErrorString)(r, &what) != CUDA_SUCCESS || !what)
        what = "unknown error";
    snprintf(text, sizeof(text), "%s (CUDA error %d)", what, (int)r);
    return text;
}
