/*
 * tests/device/bad_test.h - the harness of the bad-input programs: each
 * defines bad_kernel (PE 0 makes one bad call) and BAD_MAIN(prog, what);
 * the program passes (tests/pe/run-pe) when it exits nonzero with the
 * line of its EXPECT comment.  Reaching the end means the bad call
 * returned: that is reported and the exit status is 0, a failure.
 */
#ifndef BAD_TEST_H
#define BAD_TEST_H

#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct bad_args {
    uint64_t *buf; /* 8 words of the device heap */
    int me, npes;
} bad_args_t;

/* Hooks a program may define before including this header. */
#ifndef BAD_BEFORE_INIT
#define BAD_BEFORE_INIT() ((void)0) /* e.g. setenv */
#endif
#ifndef BAD_PREPARE
#define BAD_PREPARE(a) ((void)(a)) /* after the buffer is allocated */
#endif

#define BAD_MAIN(prog, what)                                                                   \
    int main(void)                                                                             \
    {                                                                                          \
        bad_args_t a;                                                                          \
        int rc;                                                                                \
                                                                                               \
        BAD_BEFORE_INIT();                                                                     \
        shmem_init();                                                                          \
        a.me = shmem_my_pe();                                                                  \
        a.npes = shmem_n_pes();                                                                \
        a.buf = (uint64_t *)gshmem_calloc(8, sizeof(uint64_t));                                \
        BAD_PREPARE(a);                                                                        \
        shmem_barrier_all();                                                                   \
        rc = GSHMEM_LAUNCH(bad_kernel, 1, 1, a);                                               \
        if (rc != 0) { /* the GPU: the kernel trapped after its report */                      \
            fprintf(stderr, prog ": the kernel failed (%d)\n", rc);                            \
            shmem_global_exit(1);                                                              \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        fprintf(stderr, prog ": " what " returned\n");                                         \
        gshmem_free(a.buf);                                                                    \
        shmem_finalize();                                                                      \
        return 0;                                                                              \
    }

#endif
