/*
 * tests/moe/bad_moe_destroyed.c - a dispatch on a gshmem_moe_t that was
 * destroyed is refused with GSHMEM_MOE_ERR_INVALID and one line (the
 * buffer's live word is cleared on destroy); it used to read freed memory
 * and crash or hang.  The program ends the job itself once it has seen the
 * code, so the run passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmem_moe_dispatch: buffer 0x[0-9a-f]+ is not a live gshmem_moe_t \(destroyed, or never created\) */
#include <gshmem_moe.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    gshmem_moe_config_t cfg = {0};
    gshmem_moe_handle_t h;
    gshmem_moe_t *b = NULL;
    int32_t count[4];
    uint16_t *recv;
    int rc;

    shmem_init();
    cfg.hidden = 128, cfg.num_experts = 2 * shmem_n_pes(), cfg.topk = 1;
    cfg.max_tokens_per_pe = 4, cfg.format = GSHMEM_MOE_BF16, cfg.mode = GSHMEM_MOE_LOW_LATENCY;
    if (gshmem_moe_create(&cfg, &b) != 0) {
        fprintf(stderr, "bad_moe_destroyed: gshmem_moe_create: %s\n", gshmem_moe_error());
        shmem_finalize();
        return 0;
    }
    recv = calloc((size_t)2 * shmem_n_pes() * 4 * 128, 2);
    gshmem_moe_destroy(b);
    rc = gshmem_moe_dispatch(b, NULL, NULL, 0, recv, NULL, count, &h);
    if (rc == GSHMEM_MOE_ERR_INVALID)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_moe_destroyed: the dispatch returned %d\n", rc);
    shmem_finalize();
    return 0;
}
