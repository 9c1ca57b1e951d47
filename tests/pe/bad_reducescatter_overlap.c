/*
 * tests/pe/bad_reducescatter_overlap.c - dest of a reduce-scatter must be
 * disjoint from source or this PE's own block of it: dest on another
 * member's block would overwrite data that member has yet to read, so it
 * is reported as one line naming the routine, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmemx_long_sum_reducescatter: dest 0x[0-9a-f]+ and source 0x[0-9a-f]+ overlap: dest must be disjoint from source or be this PE's own block of it */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

static long buf[64];

int main(void)
{
    shmem_init();
    /* Blocks of 4: this PE's is buf + 4 * me; buf + 1 is nobody's. */
    shmemx_long_sum_reducescatter(SHMEM_TEAM_WORLD, buf + 1, buf, 4);
    fprintf(stderr, "bad_reducescatter_overlap: the reduce-scatter returned\n");
    shmem_finalize();
    return 0;
}
