/*
 * tests/compat/nv_status.c - an NVSHMEM program's error handling: the
 * nvshmemx_status codes (NVSHMEMX_SUCCESS, NVSHMEMX_ERROR_*, enum
 * nvshmemx_status), nvshmemx_status_string, and NVSHMEMI_ERROR_PRINT in a
 * check macro of the kind NVSHMEM's examples define.  Routines that report a
 * status return these codes: a good buffer registration is NVSHMEMX_SUCCESS,
 * registering it twice is NVSHMEMX_ERROR_INVALID_VALUE (with gshmem's one
 * line on stderr).
 */
#include <string.h>

#include "nv_test.h"

#define NVSHMEM_CHECK(stmt, want)                                                              \
    do {                                                                                       \
        int result_ = (stmt);                                                                  \
        if (result_ != (want)) {                                                               \
            NVSHMEMI_ERROR_PRINT("[%d] %s returned %s, expected %s\n", nvshmem_my_pe(), #stmt, \
                                 nvshmemx_status_string(result_),                              \
                                 nvshmemx_status_string(want));                                \
            nv_fails++;                                                                        \
        }                                                                                      \
    } while (0)

#define N 4096

int main(void)
{
    static char local[N];
    enum nvshmemx_status ok = NVSHMEMX_SUCCESS;

    nvshmem_init();
    NV_CHECK("NVSHMEMX_SUCCESS", 0, 0, ok);
    NV_CHECK("NVSHMEMX_ERROR_INTERNAL", 0, 7, NVSHMEMX_ERROR_INTERNAL);
    NV_CHECK("distinct codes", 0, 1,
             NVSHMEMX_ERROR_INVALID_VALUE != NVSHMEMX_ERROR_OUT_OF_MEMORY &&
                 NVSHMEMX_ERROR_NOT_SUPPORTED != NVSHMEMX_ERROR_SYMMETRY &&
                 NVSHMEMX_ERROR_GPU_NOT_SELECTED != NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED);
    NV_CHECK("status_string(SUCCESS)", 0, 1,
             strstr(nvshmemx_status_string(NVSHMEMX_SUCCESS), "SUCCESS") != NULL);
    NV_CHECK("status_string(INTERNAL)", 0, 1,
             strstr(nvshmemx_status_string(NVSHMEMX_ERROR_INTERNAL), "ERROR_INTERNAL") != NULL);
    NV_CHECK("status_string(INVALID_VALUE)", 0, 1,
             strstr(nvshmemx_status_string(NVSHMEMX_ERROR_INVALID_VALUE), "INVALID_VALUE") !=
                 NULL);
    NV_CHECK("status_string(-1) unknown", 0, 1,
             strstr(nvshmemx_status_string(-1), "unknown") != NULL);
    NV_CHECK("init status", 0, NVSHMEM_STATUS_IS_INITIALIZED, nvshmemx_init_status());

    NVSHMEM_CHECK(nvshmemx_buffer_register(local, N), NVSHMEMX_SUCCESS);
    if (nvshmem_my_pe() == 0)
        fprintf(stderr, "nv_status: one error line expected next (registering twice)\n");
    NVSHMEM_CHECK(nvshmemx_buffer_register(local, N), NVSHMEMX_ERROR_INVALID_VALUE);
    NVSHMEM_CHECK(nvshmemx_buffer_unregister(local), NVSHMEMX_SUCCESS);

    nvshmem_barrier_all();
    int rc = nv_done("nv_status");
    nvshmem_finalize();
    return rc;
}
