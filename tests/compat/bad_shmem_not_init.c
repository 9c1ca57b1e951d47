/*
 * tests/compat/bad_shmem_not_init.c - NVSHMEMX_INIT_WITH_SHMEM with attr
 * uses the OpenSHMEM library the program started; before shmem_init there
 * is none: one line saying so, a nonzero exit.
 */
#include <gshmem/compat/nvshmem.h>
#include <stdio.h>

/* EXPECT: ^gshmem: PE [?0-9]+: gshmemx_init_attr: GSHMEMX_INIT_WITH_SHMEM .*call shmem_init first */
/* EXPECT_WITHIN: 20 */

int main(void)
{
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;

    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_SHMEM, &attr);
    fprintf(stderr, "FAIL: nvshmemx_init_attr returned with no OpenSHMEM library\n");
    return 0;
}
