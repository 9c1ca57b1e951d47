/*
 * tests/pe/bad_buf_unknown.c - unregistering an address that starts no registered buffer is refused with
 * NVSHMEM's GSHMEMX_ERROR_INVALID_VALUE and one line naming the routine.
 * The program ends the job itself once it has seen the code, so the run
 * passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_unregister: 0x[0-9a-f]+ is not the address of a registered buffer */
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
    rc = gshmemx_buffer_unregister(buf + 1);
    if (rc == GSHMEMX_ERROR_INVALID_VALUE)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_buf_unknown: returned %d, not GSHMEMX_ERROR_INVALID_VALUE\n", rc);
    shmem_finalize();
    return 0;
}
