/*
 * tests/pe/bad_put_null.c - shmem_putmem from a NULL source with bytes to
 * move is reported, rather than crashing in memcpy or the transport.  A
 * zero-length put from NULL moves nothing and is allowed.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_putmem: source is NULL, with 8 bytes to transfer */
#include <shmem.h>
#include <stdio.h>

static long dest[2];

int main(void)
{
    int peer;

    shmem_init();
    peer = (shmem_my_pe() + 1) % shmem_n_pes();
    shmem_putmem(dest, NULL, 0, peer); /* nothing to move: fine */
    shmem_barrier_all();
    shmem_putmem(dest, NULL, sizeof(long), peer);
    fprintf(stderr, "bad_put_null: the put from NULL returned\n");
    shmem_finalize();
    return 0;
}
