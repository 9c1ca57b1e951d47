/*
 * tests/pe/bad_fin_wait_any.c - the last PE finalizes while the others
 * wait in shmem_wait_until_any: the job ends within seconds with one line
 * naming the finalizing PE, not at GSHMEM_WAIT_TIMEOUT.
 */
/* EXPECT: gshmem: PE 0: shmem_[a-z0-9_]*wait_until_any: PE [0-9]+ called shmem_finalize while this PE waits in shmem_[a-z0-9_]*wait_until_any */
/* EXPECT_WITHIN: 10 */
#include "bad_fin.h"

static int flags[4];

int main(void)
{
    if (bad_fin_start("bad_fin_wait_any"))
        return bad_fin_finalize("bad_fin_wait_any");
    shmem_int_wait_until_any(flags, 4, NULL, SHMEM_CMP_EQ, 1);
    return bad_fin_returned("bad_fin_wait_any", "shmem_int_wait_until_any");
}
