/*
 * tests/pe/bad_ctx_double_destroy.c - destroying a context twice is
 * reported as one line naming the routine and the handle, then the job
 * ends (not a double free).
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_ctx_destroy: context handle 0x[0-9a-f]+ is not a live context \(destroyed, or never created\) */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_ctx_t ctx;

    shmem_init();
    if (shmem_ctx_create(0, &ctx) != 0) {
        fprintf(stderr, "bad_ctx_double_destroy: shmem_ctx_create failed\n");
        return 1;
    }
    shmem_ctx_destroy(ctx);
    shmem_ctx_destroy(ctx);
    fprintf(stderr, "bad_ctx_double_destroy: the second shmem_ctx_destroy returned\n");
    shmem_finalize();
    return 0;
}
