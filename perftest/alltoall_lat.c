/*
 * alltoall_lat.c - shmem_alltoall64 over all PEs, each PE sending 8 B,
 * 64 KiB or 1 MiB to every PE (coll_bench.h says how it is timed and
 * reported).  Every PE checks the last result: block p came from PE p and
 * was the block PE p meant for this PE.
 */
#include "coll_bench.h"

static int64_t *src, *dest;

static void call(long bytes, long i)
{
    shmem_alltoall64(dest, src, (size_t)bytes / 8, 0, 0, shmem_n_pes(), coll_psync[i % 2]);
}

int main(int argc, char **argv)
{
    coll_init();

    bench_opts_t opts;
    bench_parse(argc, argv, 5000, 200, &opts);
    int me = shmem_my_pe(), npes = shmem_n_pes();
    src = shmem_malloc(COLL_MAX_BYTES * npes);
    dest = shmem_malloc(COLL_MAX_BYTES * npes);
    BENCH_CHECK(src && dest, "shmem_malloc of %ld bytes failed", COLL_MAX_BYTES * npes);

    for (size_t s = 0; s < COLL_NSIZES; s++) {
        long bytes = coll_sizes[s], n = bytes / 8;
        for (int p = 0; p < npes; p++)
            for (long k = 0; k < n; k++)
                src[p * n + k] = (me * 1000L + p) * 1000003L + k;
        coll_measure("alltoall_lat", call, bytes, &opts);
        for (int p = 0; p < npes; p++)
            for (long k = 0; k < n; k++)
                BENCH_CHECK(dest[p * n + k] == (p * 1000L + me) * 1000003L + k,
                            "PE %d: dest[%ld] = %ld after %ld B", me, p * n + k,
                            (long)dest[p * n + k], bytes);
    }
    shmem_barrier_all();
    shmem_free(dest);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
