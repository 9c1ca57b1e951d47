/*
 * tests/pe/reinit.c - shmem_init after shmem_finalize in one process, many
 * times (GSHMEM_REINIT_CYCLES, default 20): each cycle allocates, puts to
 * its right neighbour, checks what its left one put, and finalizes.  Over
 * PMIx and UCX (the -net twin) a later init used to fail now and then
 * (PMIx_Fence: PARTIAL SUCCESS, PMIx_Get: TIMEOUT) or hang: the launcher
 * connection is now kept for the life of the process.
 *
 * From 40 cycles on it also checks that a cycle leaves nothing behind: the
 * resident set and the number of mappings after the last cycle against
 * those after cycle 10 (by then every allocator and library has its
 * steady state).  Each cycle used to leak about 750 KB and a mapping (the
 * topology loaded anew at each init).  tests/pe/reinit_soak.sh runs 200
 * cycles.  Exit status is the verdict.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Resident set (kB) and number of mappings of this process. */
static void footprint(long *rss_kb, long *maps)
{
    char line[512];
    FILE *f = fopen("/proc/self/status", "r");

    *rss_kb = *maps = -1;
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, "VmRSS:", 6))
            *rss_kb = atol(line + 6);
    if (f)
        fclose(f);
    f = fopen("/proc/self/maps", "r");
    if (!f)
        return;
    *maps = 0;
    while (fgets(line, sizeof(line), f))
        if (strchr(line, '\n'))
            (*maps)++;
    fclose(f);
}

int main(void)
{
    const char *env = getenv("GSHMEM_REINIT_CYCLES");
    int cycles = env ? atoi(env) : 20, me = 0;
    long rss0 = 0, maps0 = 0, rss, maps;

    for (int c = 0; c < cycles; c++) {
        long *x;
        int n, left;

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
        if (c == 10)
            footprint(&rss0, &maps0);
    }
    if (cycles >= 40) {
        /* 4 MiB and 2 mappings of slack: allocator noise, not a leak of
         * 750 KB a cycle (over 150 MB in 200). */
        footprint(&rss, &maps);
        printf("reinit: PE %d: after cycle 10 %ld kB in %ld mappings, after cycle %d %ld kB in "
               "%ld mappings\n",
               me, rss0, maps0, cycles - 1, rss, maps);
        if (rss0 < 0 || maps0 < 0 || rss - rss0 > 4096 || maps - maps0 > 2) {
            fprintf(stderr,
                    "reinit: PE %d: %d cycles grew the process by %ld kB and %ld mappings\n",
                    me, cycles - 11, rss - rss0, maps - maps0);
            return 1;
        }
    }
    printf("reinit: %d cycles of init and finalize: PASS\n", cycles);
    return 0;
}
