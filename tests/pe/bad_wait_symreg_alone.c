/*
 * tests/pe/bad_wait_symreg_alone.c - gshmemx_buffer_register_symmetric on
 * every PE but the last, which never calls it (it sleeps, outside the
 * library).  The callers waited forever, GSHMEM_WAIT_TIMEOUT or not; now
 * they end the job after GSHMEM_WAIT_TIMEOUT=5 s with one line naming the
 * routine and what it waited for.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register_symmetric: .*waited more than GSHMEM_WAIT_TIMEOUT=5 s for */
/* The line comes once GSHMEM_WAIT_TIMEOUT has passed, on purpose: */
/* EXPECT_WITHIN: 20 */
#define _GNU_SOURCE
#include <gshmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "file_buf.h"

int main(void)
{
    size_t size = 8192;
    void *buf;
    int fd;

    setenv("GSHMEM_WAIT_TIMEOUT", "5", 1);
    shmem_init();
    buf = pt_file_buffer("bad-wait-symreg-alone", size, &fd);
    if (!buf)
        return 1;
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        sleep(40); /* never registers; the others' timeout ends the job first */
        fprintf(stderr, "bad_wait_symreg_alone: the job outlived the callers' timeout\n");
        return 1;
    }
    gshmemx_buffer_register_symmetric(buf, size, 0);
    fprintf(stderr, "bad_wait_symreg_alone: the registration returned\n");
    return 1;
}
