/* tests/pe/bad_fin.h - the frame of the bad_fin_* tests: the last PE calls
 * shmem_finalize while the others wait in one call that it never joins.
 * GSHMEM_WAIT_TIMEOUT=60 (set before shmem_init): ending the job in the
 * 10 s EXPECT_WITHIN allows proves the failure detector
 * (src/core/liveness.c), not the timeout. */
#ifndef BAD_FIN_H
#define BAD_FIN_H

#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

/* shmem_init with the timeouts of these tests; 1 on the PE that finalizes
 * (after a barrier, so that the others are about to wait). */
static int bad_fin_start(const char *prog)
{
    setenv("GSHMEM_WAIT_TIMEOUT", "60", 1);
    shmem_init();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "%s: needs 2 PEs or more\n", prog);
        shmem_finalize();
        exit(0);
    }
    return shmem_my_pe() == shmem_n_pes() - 1;
}

/* The finalizing PE: shmem_finalize waits for the others, which never
 * come; the job must end from a waiter's line. */
static int bad_fin_finalize(const char *prog)
{
    shmem_finalize();
    fprintf(stderr, "%s: shmem_finalize returned on the finalizing PE\n", prog);
    return 1;
}

static int bad_fin_returned(const char *prog, const char *call)
{
    fprintf(stderr, "%s: %s returned although a PE finalized\n", prog, call);
    return 1;
}

#endif
