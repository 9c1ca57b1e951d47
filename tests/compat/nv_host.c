/*
 * tests/compat/nv_host.c - an NVSHMEM host program: init, the version and
 * thread queries, malloc, put / p / get / g from host code, quiet, barrier,
 * free, finalize; bfloat16 and half put / p / get / g / iput from host code
 * too (NVSHMEM's are host-callable; in a CUDA build these are the host pass
 * of gsd/rma.h).  On host lanes and CUDA alike the host calls reach the
 * OpenSHMEM routines (the compatibility header splits these names by where
 * the call is compiled), so this also checks that host code is not sent to
 * the device routines.
 */
#include "nv_test.h"

#define N 1024

int main(void)
{
    static int src[N], got[N];
    int major = 0, minor = 0, provided = -1;

    nvshmem_init();
    int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    nvshmem_info_get_version(&major, &minor);
    NV_CHECK("nvshmem_info_get_version major", 0, NVSHMEM_MAJOR_VERSION, major);
    NV_CHECK("nvshmem_info_get_version minor", 0, NVSHMEM_MINOR_VERSION, minor);
    nvshmem_query_thread(&provided);
    NV_CHECK("nvshmem_query_thread >= SINGLE", 0, 1, provided >= NVSHMEM_THREAD_SINGLE);

    int *buf = (int *)nvshmem_malloc(N * sizeof(int));
    int *one = (int *)nvshmem_malloc(sizeof(int));
    NV_CHECK("nvshmem_malloc != NULL", 0, 1, buf != NULL && one != NULL);
    for (int i = 0; i < N; i++)
        src[i] = me * 10000 + i;

    nvshmem_int_put(buf, src, N, right);
    nvshmem_int_p(one, me + 7, right);
    nvshmem_quiet();
    nvshmem_barrier_all();

    for (int i = 0; i < N; i++)
        NV_CHECK("buf (nvshmem_int_put from the left)", i, left * 10000 + i,
                 nvshmem_int_g(buf + i, me));
    NV_CHECK("one (nvshmem_int_p from the left)", 0, left + 7, nvshmem_int_g(one, me));

    /* What the right PE received is what this PE sent. */
    nvshmem_int_get(got, buf, N, right);
    for (int i = 0; i < N; i++)
        NV_CHECK("nvshmem_int_get from the right", i, me * 10000 + i, got[i]);

    /* bfloat16 and half from host code.  The values are made with gshmem's
     * conversions: host lanes have no cuda_bf16.h. */
    nvshmem_bfloat16_t *bf = (nvshmem_bfloat16_t *)nvshmem_malloc(8 *
                                                                  sizeof(nvshmem_bfloat16_t));
    nvshmem_half_t *hf = (nvshmem_half_t *)nvshmem_malloc(8 * sizeof(nvshmem_half_t));
    nvshmem_bfloat16_t bsrc[4], bgot[4];
    nvshmem_half_t hsrc[4];
    NV_CHECK("nvshmem_malloc (16-bit) != NULL", 0, 1, bf != NULL && hf != NULL);
    for (int i = 0; i < 4; i++) {
        bsrc[i] = gshmemx_float_to_bfloat16((float)(me * 8 + i));
        hsrc[i] = gshmemx_float_to_half((float)(me * 8 + i) + 0.5f);
    }
    nvshmem_barrier_all();
    nvshmem_bfloat16_put(bf, bsrc, 4, right);
    nvshmem_bfloat16_p(bf + 4, gshmemx_float_to_bfloat16(-1.0f * (me + 1)), right);
    nvshmem_half_iput(hf, hsrc, 2, 1, 4, right); /* hf[0], [2], [4], [6] */
    nvshmem_quiet();
    nvshmem_barrier_all();
    for (int i = 0; i < 4; i++) {
        NV_CHECK("nvshmem_bfloat16_put from the left (nvshmem_bfloat16_g)", i,
                 (float)(left * 8 + i),
                 gshmemx_bfloat16_to_float(nvshmem_bfloat16_g(bf + i, me)));
        /* twice the value: NV_CHECK compares integers */
        NV_CHECK("2 x nvshmem_half_iput from the left (nvshmem_half_g)", i,
                 2 * (left * 8 + i) + 1,
                 2.0f * gshmemx_half_to_float(nvshmem_half_g(hf + 2 * i, me)));
    }
    NV_CHECK("nvshmem_bfloat16_p from the left", 0, -1.0f * (left + 1),
             gshmemx_bfloat16_to_float(bf[4]));
    nvshmem_bfloat16_get(bgot, bf, 4, right);
    for (int i = 0; i < 4; i++)
        NV_CHECK("nvshmem_bfloat16_get from the right", i, (float)(me * 8 + i),
                 gshmemx_bfloat16_to_float(bgot[i]));

    nvshmem_barrier_all();
    nvshmem_free(hf);
    nvshmem_free(bf);
    nvshmem_free(one);
    nvshmem_free(buf);
    int rc = nv_done("nv_host");
    nvshmem_finalize();
    return rc;
}
