/*
 * tests/device/bad_chan.c - a channel extension naming a channel that does not exist
 * (gshmemx_putmem_nbi_ch with channel 99) is reported, in both modes.
 */
/* EXPECT: gshmem: PE 0: gshmemx_putmem_nbi_ch: channel 99 is out of range */
#include "bad_test.h"

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    if (a.me != 0)
        return;
    gshmemx_putmem_nbi_ch(a.buf, a.buf + 4, 8, (a.me + 1) % a.npes, 99);
    gshmem_quiet();
}

BAD_MAIN("bad_chan", "gshmemx_putmem_nbi_ch on channel 99")
