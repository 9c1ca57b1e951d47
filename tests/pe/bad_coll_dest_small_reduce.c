/*
 * tests/pe/bad_coll_dest_small_reduce.c - a reduction whose dest is too
 * small: with a 1 MiB heap, a 64-byte dest (not at the heap's start)
 * cannot hold 1 MiB of results; the part past the user's heap is the
 * library's own synchronization words, which the reduction must not
 * write.  It is reported as one line naming dest, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_long_sum_reduce: dest address 0x[0-9a-f]+ \(1048576 bytes\) is not in symmetric memory */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define HEAP ((size_t)1 << 20)

/* Large enough: only dest is wrong. */
static long src[HEAP / sizeof(long)];

int main(void)
{
    long *dest;

    setenv("SHMEM_SYMMETRIC_SIZE", "1M", 1);
    shmem_init();
    shmem_malloc(64); /* dest is not at the heap's start */
    dest = shmem_malloc(64);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, src, HEAP / sizeof(long));
    fprintf(stderr, "bad_coll_dest_small_reduce: the reduction returned\n");
    shmem_finalize();
    return 0;
}
