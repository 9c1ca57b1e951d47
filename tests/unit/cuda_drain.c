/* Unit test of the CUDA backend's drain (src/gpu/cuda/cuda_devmem.c)
 * against a fake driver, no GPU: shmem_finalize first waits for every
 * kernel and copy of the PE's context (on the H200 a barrier_all queued on
 * a stream just before finalize ran on the zeroed device state, faulted,
 * and its peer waited for it until killed), and a context that failed
 * meanwhile ends the job with one line naming the routine. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "gpu/cuda/cuda.h"
#include "gpu/cuda/cuda_driver.h"
#include "gpu/devmem.h"

static int pe_ctx_obj;
#define PE_CTX ((CUcontext)(void *)&pe_ctx_obj)

static CUcontext current;
static CUresult sync_result;
static int syncs, syncs_bound;

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

static CUresult fake_synchronize(void)
{
    syncs++;
    syncs_bound += current == PE_CTX;
    return sync_result;
}

static void fake_driver(void)
{
    gsi_cu.p_cuCtxGetCurrent = fake_get_current;
    gsi_cu.p_cuCtxSetCurrent = fake_set_current;
    gsi_cu.p_cuCtxSynchronize = fake_synchronize;
    gsi_cuda.ctx = PE_CTX;
    current = NULL;
    sync_result = CUDA_SUCCESS;
    syncs = syncs_bound = 0;
}

static void fake_driver_stderr(void)
{
    fake_driver();
    cr_redirect_stderr();
}

Test(cuda_drain, waits_for_the_pes_context, .init = fake_driver)
{
    cr_assert_not_null(gsi_devmem_cuda.drain, "the CUDA backend has no drain: finalize would "
                                              "zero the state under running kernels");
    gsi_devmem_cuda.drain("shmem_finalize");
    cr_expect_eq(syncs, 1, "%d context synchronizes, expected 1", syncs);
    cr_expect_eq(syncs_bound, 1, "the synchronize did not run on the PE's context");
}

Test(cuda_drain, a_failed_context_ends_the_job, .init = fake_driver_stderr, .exit_code = 1)
{
    sync_result = CUDA_ERROR_ILLEGAL_ADDRESS;
    gsi_devmem_cuda.drain("shmem_finalize");
    cr_assert_fail("drain returned after a sticky error");
}

Test(cuda_drain, a_refused_wait_is_only_a_warning, .init = fake_driver_stderr)
{
    sync_result = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; /* a capture is under way */
    gsi_devmem_cuda.drain("shmem_finalize");
    fflush(stderr);
    cr_expect_stderr_neq_str("", "no line for the wait that was refused");
}

Test(cuda_drain, host_lanes_have_nothing_to_drain)
{
    cr_expect_null(gsi_devmem_host.drain, "host lanes run each call to its end");
}
