/*
 * bcast_lat.c - shmem_broadcast64 from PE 0 to all PEs, at 8 B, 64 KiB and
 * 1 MiB (coll_bench.h says how it is timed and reported).  Every PE but
 * the root checks the last broadcast's data; the root's dest must be left
 * alone.
 */
#include "coll_bench.h"

static int64_t *src, *dest;

static void call(long bytes, long i)
{
    shmem_broadcast64(dest, src, (size_t)bytes / 8, 0, 0, 0, shmem_n_pes(), coll_psync[i % 2]);
}

int main(int argc, char **argv)
{
    coll_init();

    bench_opts_t opts;
    bench_parse(argc, argv, 5000, 200, &opts);
    int me = shmem_my_pe();
    src = shmem_malloc(COLL_MAX_BYTES);
    dest = shmem_malloc(COLL_MAX_BYTES);
    BENCH_CHECK(src && dest, "shmem_malloc of %ld bytes failed", COLL_MAX_BYTES);

    for (size_t s = 0; s < COLL_NSIZES; s++) {
        long bytes = coll_sizes[s], n = bytes / 8;
        for (long k = 0; k < n; k++) {
            src[k] = me * 1000003L + k;
            dest[k] = -1;
        }
        coll_measure("bcast_lat", call, bytes, &opts);
        for (long k = 0; k < n; k++)
            BENCH_CHECK(dest[k] == (me == 0 ? -1 : k), "PE %d: dest[%ld] = %ld after %ld B", me, k,
                        (long)dest[k], bytes);
    }
    shmem_barrier_all();
    shmem_free(dest);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
