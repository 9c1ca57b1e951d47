/*
 * tests/device/bad_timeout.c - a device wait that never completes ends the job after
 * GSHMEM_DEVICE_WAIT_TIMEOUT (1 s here) with a report of the routine, the PE,
 * the value waited for and the value seen.
 */
/* EXPECT: gshmem: PE 0: gshmem_uint64_wait_until: .* did not reach == 42 within GSHMEM_DEVICE_WAIT_TIMEOUT \(1 s\): it holds 7 */
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
    gshmem_uint64_wait_until(a.buf, GSHMEM_CMP_EQ, 42); /* nobody sets it */
}

int main(void)
{
    bad_args_t a;
    int rc;

    setenv("GSHMEM_DEVICE_WAIT_TIMEOUT", "1", 1);
    shmem_init();
    a.me = shmem_my_pe();
    a.npes = shmem_n_pes();
    a.buf = (uint64_t *)gshmem_calloc(8, sizeof(uint64_t));
    {
        uint64_t seven = 7;

        gshmemx_memcpy_to_device(a.buf, &seven, sizeof seven);
    }
    shmem_barrier_all();
    rc = GSHMEM_LAUNCH(bad_kernel, 1, 1, a);
    if (rc != 0) { /* the GPU: the kernel trapped after its report */
        fprintf(stderr, "bad_timeout: the kernel failed (%d)\n", rc);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    fprintf(stderr, "bad_timeout: a wait for a value nobody writes returned\n");
    gshmem_free(a.buf);
    shmem_finalize();
    return 0;
}
