/*
 * tests/pe/bad_fin_signal.c - the last PE finalizes while the others wait
 * in shmem_signal_wait_until for its signal: the job ends within seconds
 * with one line naming the finalizing PE, not at GSHMEM_WAIT_TIMEOUT.
 */
/* EXPECT: gshmem: PE 0: shmem_signal_wait_until: PE [0-9]+ called shmem_finalize while this PE waits in shmem_signal_wait_until */
/* EXPECT_WITHIN: 10 */
#include "bad_fin.h"

static uint64_t sig;

int main(void)
{
    if (bad_fin_start("bad_fin_signal"))
        return bad_fin_finalize("bad_fin_signal");
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
    return bad_fin_returned("bad_fin_signal", "shmem_signal_wait_until");
}
