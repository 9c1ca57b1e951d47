/*
 * tests/device/bad_addr.c - a device put whose dest is not in the device heap
 * (a local variable of the kernel) is reported.
 */
/* EXPECT: gshmem: PE 0: gshmem_putmem: address .* is not in the symmetric heap */
#include "bad_test.h"

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    uint64_t local[2];

    if (a.me != 0)
        return;
    gshmem_putmem(local, a.buf, 8, (a.me + 1) % a.npes);
}

BAD_MAIN("bad_addr", "gshmem_putmem to a local variable")
