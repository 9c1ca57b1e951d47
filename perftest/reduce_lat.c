/*
 * reduce_lat.c - shmem_long_sum_to_all over all PEs on arrays of 8 B,
 * 64 KiB and 1 MiB (coll_bench.h says how it is timed and reported); pWrk
 * alternates with pSync.  Every PE checks the last sum.
 */
#include "coll_bench.h"

static long *src, *dest, *pwrk[2];

static void call(long bytes, long i)
{
    shmem_long_sum_to_all(dest, src, (int)(bytes / 8), 0, 0, shmem_n_pes(), pwrk[i % 2],
                          coll_psync[i % 2]);
}

int main(int argc, char **argv)
{
    coll_init();

    bench_opts_t opts;
    bench_parse(argc, argv, 5000, 200, &opts);
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long nmax = COLL_MAX_BYTES / 8;
    long nwrk = nmax / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? nmax / 2 + 1
                                                             : SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    src = shmem_malloc(COLL_MAX_BYTES);
    dest = shmem_malloc(COLL_MAX_BYTES);
    pwrk[0] = shmem_malloc(nwrk * sizeof(long));
    pwrk[1] = shmem_malloc(nwrk * sizeof(long));
    BENCH_CHECK(src && dest && pwrk[0] && pwrk[1], "shmem_malloc failed");

    for (size_t s = 0; s < COLL_NSIZES; s++) {
        long bytes = coll_sizes[s], n = bytes / 8;
        for (long k = 0; k < n; k++)
            src[k] = me + k;
        coll_measure("sum_reduce_lat", call, bytes, &opts);
        for (long k = 0; k < n; k++)
            BENCH_CHECK(dest[k] == (long)npes * (npes - 1) / 2 + npes * k,
                        "PE %d: dest[%ld] = %ld after %ld B", me, k, dest[k], bytes);
    }
    shmem_barrier_all();
    shmem_free(pwrk[1]);
    shmem_free(pwrk[0]);
    shmem_free(dest);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
