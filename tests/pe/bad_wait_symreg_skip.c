/*
 * tests/pe/bad_wait_symreg_skip.c - gshmemx_buffer_register_symmetric on
 * every PE but the last, which calls shmem_barrier_all instead.  The
 * registering PEs waited in the bootstrap's allgather for the whole
 * GSHMEM_WAIT_TIMEOUT (600 s by default); now the registration is counted
 * with the allocation calls and compared at a barrier first, so the job
 * ends at once with one line naming the PE that did not register.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register_symmetric: PE [0-9]+ is in its allocation or registration call number 0, this PE in its 1 \(gshmemx_buffer_register_symmetric\) */
#define _GNU_SOURCE
#include <gshmem.h>
#include <stdio.h>
#include <unistd.h>

#include "file_buf.h"

int main(void)
{
    size_t size = 8192;
    void *buf;
    int fd;

    shmem_init();
    buf = pt_file_buffer("bad-wait-symreg-skip", size, &fd);
    if (!buf)
        return 1;
    if (shmem_my_pe() == shmem_n_pes() - 1)
        shmem_barrier_all();
    else
        gshmemx_buffer_register_symmetric(buf, size, 0);
    shmem_barrier_all();
    fprintf(stderr, "bad_wait_symreg_skip: PE %d went on\n", shmem_my_pe());
    shmem_finalize();
    return 0;
}
