/*
 * tests/device/bad_fin_dev.c - the last PE calls shmem_finalize while the
 * other PEs' kernels wait (on host lanes) in a device wait_until for a
 * store it never makes and in a device barrier it never joins (issue 29:
 * "device waits on host lanes").  A lane's wait polls the same liveness
 * checks as the host's (src/core/liveness.c), so the job ends within
 * seconds with a line naming the finalizing PE, not at the device wait
 * timeout (600 s here, past the harness's).  On a GPU the kernel's peers
 * learn it from the watcher: compiled, not run.
 */
/* EXPECT: gshmem: PE [0-9]+: [a-z_0-9]+: PE [0-9]+ called shmem_finalize while this PE waits */
/* EXPECT_WITHIN: 10 */
#include "../pe/bad_fin.h"

#include <gshmem.h>
#include <gshmem_device.h>
#include <stdint.h>

typedef struct fd_args {
    uint64_t *flag; /* a word of the device heap nobody sets */
} fd_args_t;

/* Lane 0 waits for the flag, lane 1 in a barrier of every PE. */
GSHMEM_KERNEL(fd_kernel, fd_args_t, a)
{
    if (gshmemx_thread_id() == 0)
        gshmem_uint64_wait_until(a.flag, GSHMEM_CMP_EQ, 1);
    else
        gshmem_barrier_all();
}

int main(void)
{
    fd_args_t a;
    int last, rc;

    setenv("GSHMEM_DEVICE_WAIT_TIMEOUT", "600", 1);
    last = bad_fin_start("bad_fin_dev");
    a.flag = (uint64_t *)gshmem_calloc(1, sizeof(uint64_t));
    if (a.flag == NULL) {
        fprintf(stderr, "bad_fin_dev: gshmem_calloc failed\n");
        shmem_global_exit(2);
    }
    shmem_barrier_all();
    if (last)
        return bad_fin_finalize("bad_fin_dev");
    rc = GSHMEM_LAUNCH(fd_kernel, 1, 2, a);
    fprintf(stderr, "bad_fin_dev: PE %d: GSHMEM_LAUNCH gave %d\n", shmem_my_pe(), rc);
    return bad_fin_returned("bad_fin_dev", "the kernel");
}
