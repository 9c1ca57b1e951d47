/* Unit tests of the device heap's check of node peers' GPUs
 * (src/gpu/caps.c, gsi_caps_p2p_atomics and its line): a peer's heap is
 * mapped for load/store only where device atomics on it stay atomic.  The
 * driver's answers (CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED) are
 * fakes. */
#include <criterion/criterion.h>
#include <string.h>

#include "gpu/caps.h"

Test(caps_p2p, the_same_gpu_is_native_whatever_the_attribute_says)
{
    cr_expect_eq(gsi_caps_p2p_atomics(1, 0, 0), GSI_P2P_ATOMICS_NATIVE);
    cr_expect_eq(gsi_caps_p2p_atomics(1, 1, 0), GSI_P2P_ATOMICS_NATIVE);
}

Test(caps_p2p, another_gpu_with_native_atomics_is_native)
{
    cr_expect_eq(gsi_caps_p2p_atomics(0, 1, 1), GSI_P2P_ATOMICS_NATIVE);
}

Test(caps_p2p, another_gpu_without_native_atomics_is_refused)
{
    cr_expect_eq(gsi_caps_p2p_atomics(0, 1, 0), GSI_P2P_ATOMICS_NONE);
}

Test(caps_p2p, a_gpu_the_driver_cannot_ask_about_is_refused)
{
    /* The attribute's output is not read when the query failed. */
    cr_expect_eq(gsi_caps_p2p_atomics(0, 0, 1), GSI_P2P_ATOMICS_UNKNOWN);
}

Test(caps_p2p, the_refusal_names_the_peer_both_gpus_and_the_way_out)
{
    char line[768];

    gsi_caps_p2p_line(GSI_P2P_ATOMICS_NONE, 3, "0000:41:00.0", "0000:01:00.0", line,
                      sizeof(line));
    cr_expect(strstr(line, "PE 3's device heap, on GPU 0000:41:00.0") != NULL, "line: %s",
              line);
    cr_expect(strstr(line, "this PE's GPU 0000:01:00.0 has no native atomics") != NULL,
              "line: %s", line);
    cr_expect(strstr(line, "set GSHMEM_DISABLE_P2P=1") != NULL, "line: %s", line);
}

Test(caps_p2p, an_unknown_answer_says_the_gpu_is_not_visible)
{
    char line[768];

    gsi_caps_p2p_line(GSI_P2P_ATOMICS_UNKNOWN, 2, "0000:41:00.0", "0000:01:00.0", line,
                      sizeof(line));
    cr_expect(strstr(line, "which this process cannot see") != NULL, "line: %s", line);
    cr_expect(strstr(line, "CUDA_VISIBLE_DEVICES") != NULL, "line: %s", line);
}
