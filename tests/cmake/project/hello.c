/*
 * tests/cmake/project/hello.c - the program CMake builds against the
 * installed package: every PE puts its number into its right neighbour's
 * symmetric int and checks what its left neighbour put into its own.  Each
 * PE prints one line ending in PASS or FAIL; exit 0 only when it passed.
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    int *box = shmem_malloc(sizeof(int));

    if (box == NULL) {
        printf("hello: PE %d of %d: shmem_malloc failed: FAIL\n", me, npes);
        shmem_global_exit(1);
    }
    *box = -1;
    shmem_barrier_all(); /* every box is -1 before anyone puts */
    shmem_int_p(box, me, right);
    shmem_barrier_all(); /* and every put has landed */
    int ok = *box == left;
    printf("hello: PE %d of %d: got %d from PE %d (expected %d): %s\n", me, npes, *box, left,
           left, ok ? "PASS" : "FAIL");
    shmem_free(box);
    shmem_finalize();
    return ok ? 0 : 1;
}
