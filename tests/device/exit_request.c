/*
 * tests/device/exit_request.c - the library's answer to "did device code
 * ask for a global exit?" (gshmemi_exit_requested, issue 30), which every
 * error path of the CUDA archive asks before it ends the job, so that a
 * kernel's gshmem_global_exit(5) ends it with 5 and not 1: a lane stores
 * the request word as a GPU thread does before its trap, the host reads
 * the status back, the lane clears it, the host reads -1.  Host lanes
 * only: on a GPU the watcher would act on the word at once (the kit's
 * bad_global_exit_dev checks the status there).
 */
#include "dev_test.h"

typedef struct xr_args {
    uint64_t value;
} xr_args_t;

GSHMEM_KERNEL(xr_kernel, xr_args_t, a)
{
    *(volatile uint64_t *)GSD_STATE.exit_req = a.value;
}

#if defined(GSD_CUDA)
int main(void)
{
    printf("exit_request: host lanes only (on a GPU the watcher acts on the word)\n");
    return 77;
}
#else
int main(void)
{
    xr_args_t a;
    int fails = 0, got;

    shmem_init();
    got = gshmemi_exit_requested();
    if (got != -1)
        fprintf(stderr, "FAIL PE %d: before any request: expected -1, got %d\n", shmem_my_pe(),
                got),
            fails++;
    a.value = GSD_EXIT_REQUESTED | 5;
    if (GSHMEM_LAUNCH(xr_kernel, 1, 1, a) != 0)
        fprintf(stderr, "FAIL PE %d: launch\n", shmem_my_pe()), fails++;
    got = gshmemi_exit_requested();
    if (got != 5)
        fprintf(stderr, "FAIL PE %d: after a request for 5: expected 5, got %d\n",
                shmem_my_pe(), got),
            fails++;
    a.value = 0;
    if (GSHMEM_LAUNCH(xr_kernel, 1, 1, a) != 0)
        fprintf(stderr, "FAIL PE %d: launch\n", shmem_my_pe()), fails++;
    got = gshmemi_exit_requested();
    if (got != -1)
        fprintf(stderr, "FAIL PE %d: after the word was cleared: expected -1, got %d\n",
                shmem_my_pe(), got),
            fails++;
    printf("exit_request: PE %d: %s\n", shmem_my_pe(), fails ? "FAILED" : "ok");
    shmem_finalize();
    return fails ? 1 : 0;
}
#endif
