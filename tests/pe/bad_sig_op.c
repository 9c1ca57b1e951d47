/*
 * tests/pe/bad_sig_op.c - a put-with-signal whose sig_op is neither
 * SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD is reported.
 */
/* EXPECT: gshmem: PE 0: shmem_putmem_signal: .*is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    static long dest[2];
    static uint64_t sig;
    long src[2] = {1, 2};

    shmem_init();
    if (shmem_my_pe() == 0)
        shmem_putmem_signal(dest, src, sizeof src, &sig, 1, 99, shmem_n_pes() - 1);
    shmem_barrier_all();
    fprintf(stderr, "bad_sig_op: shmem_putmem_signal with sig_op 99 returned\n");
    shmem_finalize();
    return 0;
}
