/*
 * tests/device/bad_cmp.c - a device wait whose comparator is not a GSHMEM_CMP_ value
 * is reported.
 */
/* EXPECT: gshmem: PE 0: gshmem_uint64_wait_until: cmp 42 is not one of GSHMEM_CMP_EQ */
#include "bad_test.h"

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    if (a.me != 0)
        return;
    gshmem_uint64_wait_until(a.buf, 42, 0);
}

BAD_MAIN("bad_cmp", "gshmem_uint64_wait_until with cmp 42")
