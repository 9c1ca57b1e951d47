/*
 * tests/device/bad_lane_trap.c - one lane of the last PE takes the device
 * fatal path (GSD_FATAL: on a GPU printf and a trap, on host lanes the
 * library's line and the global exit) while every other PE waits for it in
 * a device barrier, and the last PE's other lane in a device wait.  The
 * whole job must end at once with the trapping PE named, not when the
 * waiters' GSHMEM_DEVICE_WAIT_TIMEOUT runs out: it is set to 600 s here,
 * past the harness's timeout, so a job that only ends by the timeout fails
 * the test as a hang.  At 1 PE there is no barrier, only the wait.
 */
/* EXPECT: gshmem: PE [0-9]+: bad_lane_trap: lane 0 of PE [0-9]+, the last, traps on purpose */
#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct trap_args {
    uint64_t *buf; /* 2 words of the device heap */
    int me, npes;
} trap_args_t;

/* Two lanes per PE.  buf[0]: a word nobody sets; buf[1], on the last PE:
 * how many other PEs are about to enter the barrier, so that the trap
 * comes while they wait in it. */
GSHMEM_KERNEL(trap_kernel, trap_args_t, a)
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
    GSD_FATAL("bad_lane_trap", "lane 0 of PE %d, the last, traps on purpose (%d PEs)", a.me,
              a.npes);
}

int main(void)
{
    trap_args_t a;
    int rc;

    setenv("GSHMEM_DEVICE_WAIT_TIMEOUT", "600", 1);
    shmem_init();
    a.me = shmem_my_pe();
    a.npes = shmem_n_pes();
    a.buf = (uint64_t *)gshmem_calloc(2, sizeof(uint64_t));
    if (a.buf == NULL) {
        fprintf(stderr, "bad_lane_trap: gshmem_calloc failed\n");
        shmem_global_exit(2);
    }
    rc = GSHMEM_LAUNCH(trap_kernel, 1, 2, a);
    /* The GPU: the kernel trapped after its line; the launch reports it. */
    fprintf(stderr,
            "bad_lane_trap: PE %d: the kernel returned (%d): the trap did not end the job\n",
            a.me, rc);
    shmem_global_exit(rc != 0 ? 1 : 0);
    return 0;
}
