/*
 * tests/pe/bad_coll_dest_small_bcast.c - a broadcast whose dest is too
 * small for nelems: with a 1 MiB heap, a 64-byte dest (not at the heap's
 * start) cannot hold 1 MiB, which would run into the library's own words
 * past the heap and beyond.  It is reported as one line naming dest, before
 * any byte moves, and the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_broadcastmem: dest address 0x[0-9a-f]+ \(1048576 bytes\) is not in symmetric memory */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define HEAP ((size_t)1 << 20)

/* Large enough: only dest is wrong. */
static char src[HEAP];

int main(void)
{
    char *dest;

    setenv("SHMEM_SYMMETRIC_SIZE", "1M", 1);
    shmem_init();
    shmem_malloc(64); /* dest is not at the heap's start */
    dest = shmem_malloc(64);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, HEAP, 0);
    fprintf(stderr, "bad_coll_dest_small_bcast: the broadcast returned\n");
    shmem_finalize();
    return 0;
}
