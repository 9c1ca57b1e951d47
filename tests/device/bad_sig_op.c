/*
 * tests/device/bad_sig_op.c - a device put-with-signal whose sig_op is neither
 * GSHMEM_SIGNAL_SET nor GSHMEM_SIGNAL_ADD is reported.
 */
/* EXPECT: gshmem: PE 0: gshmem_putmem_signal: sig_op 99 is not GSHMEM_SIGNAL_SET or GSHMEM_SIGNAL_ADD */
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
    gshmem_putmem_signal(a.buf, a.buf + 4, 8, a.buf + 7, 1, 99, (a.me + 1) % a.npes);
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
        fprintf(stderr, "bad_sig_op: the kernel failed (%d)\n", rc);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    fprintf(stderr, "bad_sig_op: gshmem_putmem_signal with sig_op 99 returned\n");
    gshmem_free(a.buf);
    shmem_finalize();
    return 0;
}
