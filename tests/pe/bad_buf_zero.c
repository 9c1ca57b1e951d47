/*
 * tests/pe/bad_buf_zero.c - a registration of length 0 is refused with
 * NVSHMEM's GSHMEMX_ERROR_INVALID_VALUE and one line naming the routine.
 * The program ends the job itself once it has seen the code, so the run
 * passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register: 0x[0-9a-f]+, 0 bytes: the length is 0 */
#include <gshmem.h>
#include <stdio.h>
#include <stdlib.h>

static char buf[256];

int main(void)
{
    int rc;

    shmem_init();
    rc = gshmemx_buffer_register(buf, 0);
    if (rc == GSHMEMX_ERROR_INVALID_VALUE)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_buf_zero: returned %d, not GSHMEMX_ERROR_INVALID_VALUE\n", rc);
    shmem_finalize();
    return 0;
}
