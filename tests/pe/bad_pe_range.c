/*
 * tests/pe/bad_pe_range.c - a put to a PE that does not exist is reported
 * as one line naming the routine and the valid range, then the job ends
 * (the other PEs wait in a barrier: they must not hang).
 */
/* EXPECT: gshmem: PE 0: shmem_putmem: PE 7 is out of range: the job has PEs 0 to [0-9]+ */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    static long dest[4];
    long src[4] = {1, 2, 3, 4};

    shmem_init();
    if (shmem_my_pe() == 0)
        shmem_putmem(dest, src, sizeof src, 7);
    shmem_barrier_all();
    fprintf(stderr, "bad_pe_range: the put to PE 7 returned\n");
    shmem_finalize();
    return 0;
}
