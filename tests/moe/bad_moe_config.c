/*
 * tests/moe/bad_moe_config.c - gshmem_moe_create is collective, so the PEs'
 * configs must agree: here the last PE passes another hidden size (and, with
 * GSHMEM_TEST_MOE_REFUSE=1 in the environment, a topk of 0, which it alone
 * refuses).  Every PE's create returns GSHMEM_MOE_ERR_INVALID with a line
 * naming the PE and both values (or the refusing PE); before, the PEs went
 * on into the symmetric allocations with different sizes, or without the
 * refusing PE, and waited there.  The program ends the job itself once
 * every PE has seen the code (a barrier first: the code came on all).
 */
/* EXPECT: gshmem: PE [0-9]+: gshmem_moe_create: PE [0-9]+ (has hidden 256, PE 0 128: every PE must pass the same config|refused its config) */
/* EXPECT_WITHIN: 10 */
#include <gshmem_moe.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    gshmem_moe_config_t cfg = {0};
    const char *refuse = getenv("GSHMEM_TEST_MOE_REFUSE");
    gshmem_moe_t *b = NULL;
    int last, rc;

    shmem_init();
    last = shmem_my_pe() == shmem_n_pes() - 1 && shmem_n_pes() > 1;
    cfg.hidden = 128, cfg.num_experts = 2 * shmem_n_pes(), cfg.topk = 1;
    cfg.max_tokens_per_pe = 4, cfg.format = GSHMEM_MOE_BF16, cfg.mode = GSHMEM_MOE_LOW_LATENCY;
    if (last && refuse && *refuse == '1')
        cfg.topk = 0;
    else if (last)
        cfg.hidden = 256;
    rc = gshmem_moe_create(&cfg, &b);
    shmem_barrier_all(); /* every PE returned: none waits in the create */
    if (rc == GSHMEM_MOE_ERR_INVALID)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_moe_config: gshmem_moe_create returned %d on PE %d\n", rc,
            shmem_my_pe());
    if (rc == 0)
        gshmem_moe_destroy(b);
    shmem_finalize();
    return 0;
}
