/* Unit test: host shmem_wait_until / shmem_test / shmem_signal_wait_until on
 * a variable in a region the CPU reaches only by copies (a GPU's device
 * heap, region.copy set) are refused with one line naming the on-stream
 * routine, not run as loads (which fault on GPU memory; issue 30).  The
 * region here is host memory with a copy function, so without the check
 * the call would load it and return. */
#include "config.h"

#include <criterion/criterion.h>
#include <shmem.h>
#include <string.h>

#include "core/pe.h"

static long words[4];
static uintptr_t no_peer[1];

static void copy_fn(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}

/* PE 0 of 1, initialized, with words[] as a GPU region (no other region). */
static void gpu_region(void)
{
    gsi_region_t reg;

    gsi_pe.init_count = 1;
    gsi_pe.my_pe = 0;
    gsi_pe.n_pes = 1;
    memset(&reg, 0, sizeof(reg));
    reg.base = (uintptr_t)words;
    reg.size = reg.user_size = sizeof(words);
    reg.peer = no_peer;
    reg.fd = -1;
    reg.copy = copy_fn;
    cr_assert_eq(gsi_region_add(1, &reg), 0);
}

Test(wait_gpu, wait_until_is_refused, .init = gpu_region, .exit_code = 1)
{
    shmem_long_wait_until(&words[1], SHMEM_CMP_EQ, 0);
    cr_assert_fail("shmem_long_wait_until returned");
}

Test(wait_gpu, test_is_refused, .init = gpu_region, .exit_code = 1)
{
    shmem_long_test(&words[1], SHMEM_CMP_EQ, 0);
    cr_assert_fail("shmem_long_test returned");
}

Test(wait_gpu, signal_wait_until_is_refused, .init = gpu_region, .exit_code = 1)
{
    shmem_signal_wait_until((uint64_t *)&words[2], SHMEM_CMP_EQ, 0);
    cr_assert_fail("shmem_signal_wait_until returned");
}
