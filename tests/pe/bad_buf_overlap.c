/*
 * tests/pe/bad_buf_overlap.c - a registration that overlaps a registered buffer is refused with
 * NVSHMEM's GSHMEMX_ERROR_INVALID_VALUE and one line naming the routine.
 * The program ends the job itself once it has seen the code, so the run
 * passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register: 0x[0-9a-f]+, 128 bytes, overlaps the buffer registered at 0x[0-9a-f]+ \(256 bytes\) */
#include <gshmem.h>
#include <stdio.h>
#include <stdlib.h>

static char buf[256];

int main(void)
{
    int rc;

    shmem_init();
    if (gshmemx_buffer_register(buf, sizeof(buf)) != GSHMEMX_SUCCESS)
        return 0;
    rc = gshmemx_buffer_register(buf + 64, 128);
    if (rc == GSHMEMX_ERROR_INVALID_VALUE)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_buf_overlap: returned %d, not GSHMEMX_ERROR_INVALID_VALUE\n", rc);
    shmem_finalize();
    return 0;
}
