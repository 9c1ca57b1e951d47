/*
 * tests/pe/bad_fin_wait_until.c - the last PE finalizes while the others
 * wait in shmem_wait_until for a store it will never make: every waiter
 * used to hang until GSHMEM_WAIT_TIMEOUT (600 s by default); now PE 0 ends
 * the job within seconds, naming the finalizing PE.
 */
/* EXPECT: gshmem: PE 0: shmem_[a-z0-9_]*wait_until: PE [0-9]+ called shmem_finalize while this PE waits in shmem_[a-z0-9_]*wait_until */
/* EXPECT_WITHIN: 10 */
#include "bad_fin.h"

static int flag;

int main(void)
{
    if (bad_fin_start("bad_fin_wait_until"))
        return bad_fin_finalize("bad_fin_wait_until");
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    return bad_fin_returned("bad_fin_wait_until", "shmem_int_wait_until");
}
