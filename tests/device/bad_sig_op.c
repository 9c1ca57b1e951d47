/*
 * tests/device/bad_sig_op.c - a device put-with-signal whose sig_op is neither
 * GSHMEM_SIGNAL_SET nor GSHMEM_SIGNAL_ADD is reported.
 */
/* EXPECT: gshmem: PE 0: gshmem_putmem_signal: sig_op 99 is not GSHMEM_SIGNAL_SET or GSHMEM_SIGNAL_ADD */
#include "bad_test.h"

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    if (a.me != 0)
        return;
    gshmem_putmem_signal(a.buf, a.buf + 4, 8, a.buf + 7, 1, 99, (a.me + 1) % a.npes);
}

BAD_MAIN("bad_sig_op", "gshmem_putmem_signal with sig_op 99")
