/*
 * tests/device/bad_pe.c - a device put to a PE out of range is reported
 * (gshmem: PE 0: gshmem_putmem: PE <n_pes> is out of range ...).
 */
/* EXPECT: gshmem: PE 0: gshmem_putmem: PE [0-9]+ is out of range */
#include "bad_test.h"

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    if (a.me != 0)
        return;
    gshmem_putmem(a.buf, a.buf + 4, 8, a.npes);
}

BAD_MAIN("bad_pe", "gshmem_putmem to PE n_pes")
