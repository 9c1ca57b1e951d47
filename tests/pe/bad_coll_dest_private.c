/*
 * tests/pe/bad_coll_dest_private.c - a broadcast into private memory
 * (malloc'd, not symmetric) is reported as one line naming dest, then the
 * job ends.  64 KiB is above GSHMEM_BCAST_PUSH_MAX, so over load/store
 * every non-root PE would copy from the root into its own dest, which
 * nothing else looks at.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_broadcastmem: dest address 0x[0-9a-f]+ \(65536 bytes\) is not in symmetric memory */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define N ((size_t)64 << 10)

int main(void)
{
    char *src, *dest = malloc(N);

    shmem_init();
    src = shmem_calloc(N, 1);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, N, 0);
    fprintf(stderr, "bad_coll_dest_private: the broadcast returned\n");
    shmem_free(src);
    shmem_finalize();
    free(dest);
    return 0;
}
