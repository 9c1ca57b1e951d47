/*
 * tests/device/bad_global_exit_dev.c - device code's gshmem_global_exit
 * (issue 18): lane 0 of the last PE calls gshmem_global_exit(5) while the
 * other PEs wait for it in a device barrier and its own lane 1 in a device
 * wait.  The whole job must end at once with status 5 (EXPECT_STATUS, as
 * mpirun reports it) and the PE's line, not by the waiters' timeout (600 s
 * here, past the harness's).  On host lanes this runs for real; the GPU
 * path (a word the watcher reads, then a trap) is compiled, not run.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmem_global_exit: status 5, from device code */
/* EXPECT_STATUS: 5 */
#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct gx_args {
    uint64_t *buf; /* 2 words of the device heap */
    int me, npes;
} gx_args_t;

/* buf[0]: a word nobody sets; buf[1], on the last PE: how many other PEs
 * are about to enter the barrier, so that the exit comes while they wait. */
GSHMEM_KERNEL(gx_kernel, gx_args_t, a)
{
    int last = a.npes - 1;

    if (a.me != last) {
        if (gshmemx_thread_id() == 0) {
            gshmem_uint64_atomic_add(&a.buf[1], 1, last);
            gshmem_quiet();
            gshmem_barrier_all(); /* the last PE never comes */
        }
        return;
    }
    if (gshmemx_thread_id() != 0) {
        gshmem_uint64_wait_until(&a.buf[0], GSHMEM_CMP_EQ, 1); /* nobody sets it */
        return;
    }
    gshmem_uint64_wait_until(&a.buf[1], GSHMEM_CMP_EQ, (uint64_t)last);
    gshmem_global_exit(5);
}

int main(void)
{
    gx_args_t a;
    int rc;

    setenv("GSHMEM_DEVICE_WAIT_TIMEOUT", "600", 1);
    shmem_init();
    a.me = shmem_my_pe();
    a.npes = shmem_n_pes();
    a.buf = (uint64_t *)gshmem_calloc(2, sizeof(uint64_t));
    if (a.buf == NULL) {
        fprintf(stderr, "bad_global_exit_dev: gshmem_calloc failed\n");
        shmem_global_exit(2);
    }
    rc = GSHMEM_LAUNCH(gx_kernel, 1, 2, a);
    fprintf(stderr, "bad_global_exit_dev: PE %d: the kernel returned (%d): the job went on\n",
            a.me, rc);
    shmem_global_exit(rc != 0 ? 1 : 0);
    return 0;
}
