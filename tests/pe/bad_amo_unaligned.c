/*
 * tests/pe/bad_amo_unaligned.c - an atomic on a misaligned address is
 * reported by one clear line, on the P2P path (where it passed silently)
 * and over the network (where it failed as "system call failed").
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_long_atomic_add: address 0x[0-9a-f]+ is not aligned to the 8-byte size of shmem_long_atomic_add */
#include <shmem.h>
#include <stdio.h>

static long words[4];

int main(void)
{
    int peer;

    shmem_init();
    peer = (shmem_my_pe() + 1) % shmem_n_pes();
    shmem_long_atomic_add(&words[1], 1, peer); /* aligned: fine */
    shmem_barrier_all();
    shmem_long_atomic_add((long *)((char *)&words[1] + 4), 1, peer);
    fprintf(stderr, "bad_amo_unaligned: the misaligned atomic returned\n");
    shmem_finalize();
    return 0;
}
