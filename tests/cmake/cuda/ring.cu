/*
 * tests/cmake/cuda/ring.cu - device code through CMake's CUDA support: a
 * kernel puts this PE's number into the right neighbour's symmetric int
 * (gshmem_int_p from the GPU), then each PE checks what its left neighbour
 * put.  tests/cmake/run.sh only builds it (the build is the test: -rdc and
 * the device link with libgshmem_device.a); run on 2 PEs with a GPU it
 * prints PASS or FAIL per PE.
 */
#include <gshmem.h>
#include <stdio.h>

struct ring_args {
    int *box;
    int right;
};

GSHMEM_KERNEL(ring, struct ring_args, a)
{
    if (gshmemx_thread_id() == 0)
        gshmem_int_p(a.box, gshmem_my_pe(), a.right);
    gshmem_quiet();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    struct ring_args a = {(int *)gshmem_malloc(sizeof(int)), (me + 1) % npes};
    int left = (me + npes - 1) % npes, got = -1;

    gshmemx_memcpy_to_device(a.box, &got, sizeof got);
    shmem_barrier_all();
    int rc = GSHMEM_LAUNCH(ring, 1, 32, a);
    shmem_barrier_all();
    gshmemx_memcpy_from_device(&got, a.box, sizeof got);
    int ok = rc == 0 && got == left;
    printf("ring: PE %d of %d: launch %d, got %d from PE %d: %s\n", me, npes, rc, got, left,
           ok ? "PASS" : "FAIL");
    gshmem_free(a.box);
    shmem_finalize();
    return ok ? 0 : 1;
}
