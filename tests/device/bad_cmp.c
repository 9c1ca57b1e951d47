/*
 * tests/device/bad_cmp.c - a device wait whose comparator is not a GSHMEM_CMP_ value
 * is reported.
 */
/* EXPECT: gshmem: PE 0: gshmem_uint64_wait_until: cmp 42 is not one of GSHMEM_CMP_EQ */
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
    if (a.me != 0)
        return;
    gshmem_uint64_wait_until(a.buf, 42, 0);
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
        fprintf(stderr, "bad_cmp: the kernel failed (%d)\n", rc);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    fprintf(stderr, "bad_cmp: gshmem_uint64_wait_until with cmp 42 returned\n");
    gshmem_free(a.buf);
    shmem_finalize();
    return 0;
}
