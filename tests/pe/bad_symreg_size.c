/*
 * tests/pe/bad_symreg_size.c - gshmemx_buffer_register_symmetric with a
 * size that differs across PEs (the last PE passes half) ends the job with
 * one line naming the PEs and both sizes.  On 1 PE there is no other size,
 * so the program passes a NULL buffer instead (the bad_* run needs a line).
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register_symmetric: (PE [0-9]+ registers 4096 bytes, PE 0 8192: every PE must pass a buffer of the same size|buf is NULL) */
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
    buf = pt_file_buffer("bad-symreg-size", size, &fd);
    if (!buf)
        return 1;
    if (shmem_n_pes() == 1)
        buf = NULL;
    else if (shmem_my_pe() == shmem_n_pes() - 1)
        size /= 2;
    gshmemx_buffer_register_symmetric(buf, size, 0);
    fprintf(stderr, "bad_symreg_size: the registration returned\n");
    shmem_finalize();
    return 0;
}
