/*
 * tests/device/bad_timeout.c - a device wait that never completes ends the job after
 * GSHMEM_DEVICE_WAIT_TIMEOUT (1 s here) with a report of the routine, the PE,
 * the value waited for and the value seen.
 */
/* EXPECT: gshmem: PE 0: gshmem_uint64_wait_until: .* did not reach == 42 within GSHMEM_DEVICE_WAIT_TIMEOUT \(1 s\): it holds 7 */
/* A wait for a value nobody writes, with a 1-second timeout. */
#define BAD_BEFORE_INIT() setenv("GSHMEM_DEVICE_WAIT_TIMEOUT", "1", 1)
#define BAD_PREPARE(a)                                                                         \
    do {                                                                                       \
        uint64_t seven_ = 7;                                                                   \
        gshmemx_memcpy_to_device((a).buf, &seven_, sizeof seven_);                             \
    } while (0)
#include "bad_test.h"

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    if (a.me != 0)
        return;
    gshmem_uint64_wait_until(a.buf, GSHMEM_CMP_EQ, 42); /* nobody sets it */
}

BAD_MAIN("bad_timeout", "a wait for a value nobody writes")
