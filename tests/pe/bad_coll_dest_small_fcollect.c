/*
 * tests/pe/bad_coll_dest_small_fcollect.c - an fcollect whose dest is too
 * small: with a 1 MiB heap, a 64-byte dest cannot take npes blocks of 1 MiB.
 * It is reported as one line naming dest and the bytes fcollect writes
 * there on every PE (nelems times the team's PEs), then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_fcollectmem: dest address 0x[0-9a-f]+ \([0-9]+ bytes\) is not in symmetric memory */
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
    shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, src, HEAP);
    fprintf(stderr, "bad_coll_dest_small_fcollect: the fcollect returned\n");
    shmem_finalize();
    return 0;
}
