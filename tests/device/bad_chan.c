/*
 * tests/device/bad_chan.c - a channel extension naming a channel that does not exist
 * (gshmemx_putmem_nbi_ch with channel 99) is reported, in both modes.
 */
/* EXPECT: gshmem: PE 0: gshmemx_putmem_nbi_ch: channel 99 is out of range */
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
    gshmemx_putmem_nbi_ch(a.buf, a.buf + 4, 8, (a.me + 1) % a.npes, 99);
    gshmem_quiet();
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
        fprintf(stderr, "bad_chan: the kernel failed (%d)\n", rc);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    fprintf(stderr, "bad_chan: gshmemx_putmem_nbi_ch on channel 99 returned\n");
    gshmem_free(a.buf);
    shmem_finalize();
    return 0;
}
