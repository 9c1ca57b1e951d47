/*
 * tests/pe/bad_boot_pmi2.c - GSHMEM_BOOTSTRAP=pmi2 in a process no PMI-2
 * launcher started (no PMI_FD) is refused at shmem_init with a line naming
 * the missing variable, whatever launched it.
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: bootstrap pmi2: pmi2: PMI_FD is not set */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("GSHMEM_BOOTSTRAP", "pmi2", 1);
    unsetenv("PMI_FD");
    shmem_init();
    fprintf(stderr, "bad_boot_pmi2: shmem_init accepted pmi2 without PMI_FD\n");
    shmem_finalize();
    return 0;
}
