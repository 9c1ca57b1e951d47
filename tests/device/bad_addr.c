/*
 * tests/device/bad_addr.c - a device put whose dest is not in the device heap
 * (a local variable of the kernel) is reported.
 */
/* EXPECT: gshmem: PE 0: gshmem_putmem: address .* is not in the symmetric heap */
#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct bad_args {
    uint64_t *buf; /* 8 words of the device heap */
    int me, npes;
} bad_args_t;

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    uint64_t local[2];

    if (a.me != 0)
        return;
    gshmem_putmem(local, a.buf, 8, (a.me + 1) % a.npes);
}

int main(void)
{
    bad_args_t a;
    int rc;

    shmem_init();
    a.me = shmem_my_pe();
    a.npes = shmem_n_pes();
    a.buf = (uint64_t *)gshmem_calloc(8, sizeof(uint64_t));
    shmem_barrier_all();
    rc = GSHMEM_LAUNCH(bad_kernel, 1, 1, a);
    if (rc != 0) { /* the GPU: the kernel trapped after its report */
        fprintf(stderr, "bad_addr: the kernel failed (%d)\n", rc);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    fprintf(stderr, "bad_addr: gshmem_putmem to a local variable returned\n");
    gshmem_free(a.buf);
    shmem_finalize();
    return 0;
}
