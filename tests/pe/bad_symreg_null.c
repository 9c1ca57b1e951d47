/*
 * tests/pe/bad_symreg_null.c - gshmemx_buffer_register_symmetric with a
 * NULL buffer ends the job with one line.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register_symmetric: buf is NULL */
#include <gshmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    gshmemx_buffer_register_symmetric(NULL, 4096, 0);
    fprintf(stderr, "bad_symreg_null: the registration returned\n");
    shmem_finalize();
    return 0;
}
