/* host/order.c - Memory Ordering: fence, quiet, pe_quiet and ctx forms. */
#include "api.h"

/* The ctx forms: SHMEM_CTX_INVALID does nothing, as the spec says; a
 * handle that is no live context ends the job.  Every context's
 * operations go through the one transport, so ordering or completing them
 * all covers the context's. */
void pshmem_ctx_fence(shmem_ctx_t ctx)
{
    const char *fn = "shmem_ctx_fence";

    gsi_check_init(fn);
    if (gsi_ctx_check(fn, ctx) == SHMEM_CTX_INVALID)
        return;
    gsi_fence(fn);
}
GSI_ALIAS(shmem_ctx_fence)

void pshmem_fence(void)
{
    gsi_check_init("shmem_fence");
    gsi_fence("shmem_fence");
}
GSI_ALIAS(shmem_fence)

void pshmem_ctx_quiet(shmem_ctx_t ctx)
{
    const char *fn = "shmem_ctx_quiet";

    gsi_check_init(fn);
    if (gsi_ctx_check(fn, ctx) == SHMEM_CTX_INVALID)
        return;
    gsi_quiet(fn);
}
GSI_ALIAS(shmem_ctx_quiet)

void pshmem_quiet(void)
{
    gsi_check_init("shmem_quiet");
    gsi_quiet("shmem_quiet");
}
GSI_ALIAS(shmem_quiet)

static void pe_quiet(const char *fn, const int *target_pes, size_t npes)
{
    gsi_check_init(fn);
    for (size_t i = 0; i < npes; i++)
        gsi_check_pe(fn, target_pes[i]);
    /* Completing everything completes the operations to these PEs. */
    gsi_quiet(fn);
}

void pshmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    const char *fn = "shmem_ctx_pe_quiet";

    gsi_check_init(fn);
    if (gsi_ctx_check(fn, ctx) == SHMEM_CTX_INVALID)
        return;
    pe_quiet(fn, target_pes, npes);
}
GSI_ALIAS(shmem_ctx_pe_quiet)

void pshmem_pe_quiet(const int *target_pes, size_t npes)
{
    pe_quiet("shmem_pe_quiet", target_pes, npes);
}
GSI_ALIAS(shmem_pe_quiet)
