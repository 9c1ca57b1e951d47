/* Unit test of gshmemi_cuda_bind (src/gpu/cuda/cuda_devmem.c) against a
 * fake driver, no GPU: the archive binds the PE's context before every
 * launch and copy, and a thread that made another context current since
 * (cudaSetDevice to another GPU) must get the PE's back on its next call
 * (issue 30: a thread-local note of the first bind hid the change). */
#include "config.h"

#include <criterion/criterion.h>

#include "gpu/cuda/cuda.h"
#include "gpu/cuda/cuda_driver.h"

void gshmemi_cuda_bind(void);

static int pe_ctx_obj, other_ctx_obj;
#define PE_CTX ((CUcontext)(void *)&pe_ctx_obj)
#define OTHER_CTX ((CUcontext)(void *)&other_ctx_obj)

static CUcontext current; /* the fake driver's current context (one thread) */
static int sets;

static CUresult fake_get_current(CUcontext *ctx)
{
    *ctx = current;
    return CUDA_SUCCESS;
}

static CUresult fake_set_current(CUcontext ctx)
{
    current = ctx;
    sets++;
    return CUDA_SUCCESS;
}

static void fake_driver(void)
{
    gsi_cu.p_cuCtxGetCurrent = fake_get_current;
    gsi_cu.p_cuCtxSetCurrent = fake_set_current;
    gsi_cuda.ctx = PE_CTX;
    current = NULL;
    sets = 0;
}

Test(cuda_bind, binds_once_then_only_compares, .init = fake_driver)
{
    gshmemi_cuda_bind();
    cr_expect_eq(current, PE_CTX, "the PE's context is not current");
    gshmemi_cuda_bind();
    gshmemi_cuda_bind();
    cr_expect_eq(sets, 1, "%d cuCtxSetCurrent calls, expected 1", sets);
}

Test(cuda_bind, a_later_set_device_is_undone, .init = fake_driver)
{
    gshmemi_cuda_bind();
    current = OTHER_CTX; /* the program's cudaSetDevice(other GPU) on this thread */
    gshmemi_cuda_bind();
    cr_expect_eq(current, PE_CTX, "the launch would go to the other GPU's context");
}

Test(cuda_bind, nothing_before_init, .init = fake_driver)
{
    gsi_cuda.ctx = NULL;
    gshmemi_cuda_bind();
    cr_expect_eq(sets, 0, "bound a context before init");
}
