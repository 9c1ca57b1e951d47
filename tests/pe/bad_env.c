/*
 * tests/pe/bad_env.c - a malformed environment variable is rejected at
 * shmem_init with a line naming the variable and its value.
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: SHMEM_SYMMETRIC_SIZE="12Q" is invalid */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("SHMEM_SYMMETRIC_SIZE", "12Q", 1);
    shmem_init();
    fprintf(stderr, "bad_env: shmem_init accepted SHMEM_SYMMETRIC_SIZE=12Q\n");
    shmem_finalize();
    return 0;
}
