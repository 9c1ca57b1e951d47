/*
 * tests/compat/nv_host.c - an NVSHMEM host program: init, the version and
 * thread queries, malloc, put / p / get / g from host code, quiet, barrier,
 * free, finalize.  On host lanes and CUDA alike the host calls reach the
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

    nvshmem_barrier_all();
    nvshmem_free(one);
    nvshmem_free(buf);
    int rc = nv_done("nv_host");
    nvshmem_finalize();
    return rc;
}
