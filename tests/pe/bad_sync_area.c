/*
 * tests/pe/bad_sync_area.c - a put just past the last byte shmem_malloc can
 * hand out, into the library's own sync area (barrier and collective
 * words), is reported, not carried out: it would break the next barrier.
 * The heap is 1 MiB here, and one allocation takes all of it, so the
 * allocation's end is the heap's.
 */
/* EXPECT: gshmem: PE 0: shmem_putmem: .*is not in symmetric memory */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define HEAP ((size_t)1 << 20)

int main(void)
{
    long evil[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    char *all;

    setenv("SHMEM_SYMMETRIC_SIZE", "1M", 1);
    shmem_init();
    all = shmem_malloc(HEAP);
    if (!all) {
        fprintf(stderr, "bad_sync_area: cannot allocate the whole heap of %zu bytes\n", HEAP);
        return 1;
    }
    if (shmem_my_pe() == 0)
        shmem_putmem(all + HEAP, evil, sizeof(evil), shmem_n_pes() - 1);
    shmem_barrier_all();
    fprintf(stderr, "bad_sync_area: the put past the heap returned\n");
    shmem_free(all);
    shmem_finalize();
    return 0;
}
