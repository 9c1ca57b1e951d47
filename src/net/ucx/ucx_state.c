/* src/net/ucx/ucx_state.c - what every part of the UCX transport shares:
 * the state (gst_ucx), the waits on requests and flags, and the exchange of
 * blobs of any size at init. */
#include "config.h"

#ifdef GSHMEM_HAVE_UCX

#include "net/ucx/ucx_state.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

gst_ucx_t gst_ucx;

/* Polls of a request before its waiter yields the CPU: with more PEs than
 * cores the peer that must answer may need this core. */
#define WAIT_SPIN 64

/* Progress the worker from a thread of the PE (the progress thread counts
 * these calls to stay out of its way). */
unsigned gst_ucx_progress_locked(void)
{
    __atomic_store_n(&gst_ucx.progressed, gst_ucx.progressed + 1, __ATOMIC_RELAXED);
    return ucp_worker_progress(gst_ucx.worker);
}

/* One poll of a wait: progress the worker, and yield once it has found
 * nothing to do WAIT_SPIN times. */
static inline void wait_poll(unsigned *polls)
{
    if (!gst_ucx_progress_locked() && ++*polls > WAIT_SPIN)
        sched_yield();
}

gsi_status_t gst_ucx_wait_request(ucs_status_ptr_t req)
{
    ucs_status_t status;
    unsigned polls = 0;

    if (req == NULL)
        return GSI_OK;
    if (UCS_PTR_IS_ERR(req))
        return GSI_ERR_SYSTEM;
    while ((status = ucp_request_check_status(req)) == UCS_INPROGRESS)
        wait_poll(&polls);
    ucp_request_free(req);
    return status == UCS_OK ? GSI_OK : GSI_ERR_SYSTEM;
}

void gst_ucx_wait_done(const volatile int *done)
{
    unsigned polls = 0;

    while (!*done)
        wait_poll(&polls);
}

gsi_status_t gst_ucx_gather_blobs(const gst_init_args_t *args, const void *mine, size_t len,
                                  char **all, size_t *stride)
{
    uint64_t my_len = len, *lens, max = 0;
    char *padded;

    lens = calloc((size_t)args->n_pes, sizeof(*lens));
    if (!lens)
        return GSI_ERR_NOMEM;
    if (args->allgather(&my_len, lens, sizeof(my_len)) != 0) {
        free(lens);
        return GSI_ERR_BOOTSTRAP;
    }
    for (int pe = 0; pe < args->n_pes; pe++)
        if (lens[pe] > max)
            max = lens[pe];
    free(lens);
    padded = calloc(1, (size_t)max);
    *all = calloc((size_t)args->n_pes, (size_t)max);
    if (!padded || !*all) {
        free(padded);
        free(*all);
        return GSI_ERR_NOMEM;
    }
    memcpy(padded, mine, len);
    if (args->allgather(padded, *all, (size_t)max) != 0) {
        free(padded);
        free(*all);
        return GSI_ERR_BOOTSTRAP;
    }
    free(padded);
    *stride = (size_t)max;
    return GSI_OK;
}

#endif /* GSHMEM_HAVE_UCX */
