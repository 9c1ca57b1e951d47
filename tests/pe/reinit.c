/*
 * tests/pe/reinit.c - shmem_init after shmem_finalize in one process, many
 * times (GSHMEM_REINIT_CYCLES, default 20): each cycle allocates, puts to
 * its right neighbour, checks what its left one put, and finalizes.  Over
 * PMIx and UCX (the -net twin) a later init used to fail now and then
 * (PMIx_Fence: PARTIAL SUCCESS, PMIx_Get: TIMEOUT) or hang: the launcher
 * connection is now kept for the life of the process.  Exit status is the
 * verdict.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const char *env = getenv("GSHMEM_REINIT_CYCLES");
    int cycles = env ? atoi(env) : 20;

    for (int c = 0; c < cycles; c++) {
        long *x;
        int me, n, left;

        shmem_init();
        me = shmem_my_pe();
        n = shmem_n_pes();
        left = (me + n - 1) % n;
        x = shmem_calloc(1, sizeof(*x));
        shmem_long_p(x, 1000L * c + me, (me + 1) % n);
        shmem_barrier_all();
        if (*x != 1000L * c + left) {
            fprintf(stderr, "reinit: cycle %d: PE %d has %ld from PE %d, expected %ld\n", c, me,
                    *x, left, 1000L * c + left);
            return 1;
        }
        shmem_free(x);
        shmem_finalize();
    }
    printf("reinit: %d cycles of init and finalize: PASS\n", cycles);
    return 0;
}
