/*
 * tests/pe/bad_before_init.c - a routine called before shmem_init is
 * reported (the PE number may not be known yet: "?" or the launcher rank).
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_long_p: called before shmem_init */
#include <shmem.h>
#include <stdio.h>

static long x;

int main(void)
{
    shmem_long_p(&x, 1, 0);
    fprintf(stderr, "bad_before_init: shmem_long_p returned before shmem_init\n");
    shmem_init();
    shmem_finalize();
    return 0;
}
