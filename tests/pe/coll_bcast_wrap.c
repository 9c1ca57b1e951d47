/*
 * tests/pe/coll_bcast_wrap.c - broadcasts whose call numbers have come
 * round (mod 2^15, the tag of the collectives' one-writer words) to those of
 * earlier broadcasts with another root.  PE 1 is the root of a 64 KiB
 * broadcast (above GSHMEM_BCAST_PUSH_MAX: pulled) and of an 8-byte one
 * (pushed; over the network both go down the tree), 32766 broadcasts of
 * 8 bytes from PE 0 follow, then PE 0 is the root of a 64 KiB and of an
 * 8-byte broadcast.  A word of the first two calls left in place would
 * carry these calls' tags: PE 1's READY (PE 0, waiting for its ACKs,
 * would take PE 1 for a second root), PE 0's BCAST word over the network
 * and the digest beside its BCAST counter (its root checks would).  Each is
 * put back to 0 once read (issue 29), so these are good calls and every PE
 * gets PE 0's data.  ~0.1 s on 2 PEs.
 */
#include "pe_test.h"

#define BIG 65536

int main(void)
{
    char *dest, *src;
    int bad = 0;

    PT_START();
    dest = shmem_malloc(BIG), src = shmem_malloc(BIG);
    memset(src, pt_me + 1, BIG);
    shmem_barrier_all();
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, BIG, 1 % pt_npes);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, 8, 1 % pt_npes);
    for (int k = 0; k < 32766; k++)
        shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, 8, 0);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, BIG, 0);
    for (int i = 0; i < BIG && !bad; i++)
        bad = dest[i] != 1;
    PT_CHECK_EQ("shmem_broadcastmem", 0, bad);
    memset(dest, 0, 8);
    shmem_barrier_all();
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, 8, 0);
    for (int i = 0; i < 8 && !bad; i++)
        bad = dest[i] != 1;
    PT_CHECK_EQ("shmem_broadcastmem", 0, bad);
    shmem_free(dest);
    shmem_free(src);
    return pt_finish();
}
