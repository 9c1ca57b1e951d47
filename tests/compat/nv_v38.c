/*
 * tests/compat/nv_v38.c - NVSHMEM 3.8's additions by their NVSHMEM names:
 * a kernel whose threads add to the right PE's float, double and half
 * words (nvshmemx_{float,double,half}_atomic_{add,fetch_add}), set, swap
 * and fetch a half (nvshmem_half_atomic_*), put from one source slot with
 * nvshmemx_flush / _warp / _block between rounds, and reset a counted
 * signal; then host code calls the host forms, nvshmemx_flush_on_stream
 * and the team routines (nvshmem_team_split_strided, _split_2d,
 * _get_config, _destroy); shared memory handed over and back
 * (nvshmemx_ask_smem, _give_smem, _release_smem: gshmem asks for none).
 * An RMA region around the block's puts (nvshmemx_region_start_block,
 * _is_active, _stop_block) and the host's (nvshmemx_region_start, _stop).
 * nvshmemx_collective_launch_attr (CUDA only) is compiled, not run.
 */
#include "nv_test.h"

#include <stdint.h>

#define NT 64u /* threads of the block */

struct args {
    float *f;
    double *d;
    nvshmem_half_t *h; /* [4]: add, fetch_add, set, swap */
    int *src, *dst;    /* [NT], [3][NT] */
    uint64_t *sig;
    int *fails;
};

GSHMEM_KERNEL(v38, struct args, a)
{
    int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
    int right = (me + 1) % npes;
    unsigned t = gshmemx_thread_id();
    char smem[16];

    /* nvshmemx_ask_smem's bytes (none): any buffer of them will do */
    nvshmemx_give_smem(smem, (size_t)nvshmemx_ask_smem(NVSHMEMX_SMEM_RECOMMENDED));
    nvshmemx_float_atomic_add(a.f, 1.0f, right);
    if (nvshmemx_double_atomic_fetch_add(a.d, 1.0, right) < 0.0)
        nvshmem_int_atomic_add(a.fails, 1, me);
    nvshmemx_half_atomic_add(&a.h[0], gshmemx_float_to_half(1.0f), right);
    (void)nvshmemx_half_atomic_fetch_add(&a.h[1], gshmemx_float_to_half(1.0f), right);
    (void)nvshmemx_float_atomic_fetch_add(a.f + 1, 2.0f, right);
    nvshmemx_double_atomic_add(a.d + 1, 2.0, right);
    if (t == 0) {
        nvshmem_half_atomic_set(&a.h[2], gshmemx_float_to_half(3.0f), right);
        (void)nvshmem_half_atomic_swap(&a.h[3], gshmemx_float_to_half(4.0f), right);
        if (gshmemx_half_to_float(nvshmem_half_atomic_fetch(&a.h[3], right)) != 4.0f)
            nvshmem_int_atomic_add(a.fails, 1, me);
    }

    nvshmemx_region_attrs_t batch = NVSHMEMX_REGION_ATTRS_INITIALIZER;
    nvshmemx_region_handle_t region = 0;
    int active = 0;

    batch.hints = NVSHMEMX_REGION_HINT_BATCH_RMA;
    if (nvshmemx_region_start_block(&region, &batch) != NVSHMEMX_SUCCESS ||
        nvshmemx_region_is_active(NVSHMEMX_REGION_HINT_BATCH_RMA, &active) != 0 || !active)
        nvshmem_int_atomic_add(a.fails, 1, me);
    a.src[t] = me * 100 + (int)t;
    nvshmem_int_put_nbi(&a.dst[t], &a.src[t], 1, right);
    nvshmemx_flush();
    a.src[t] = -1;
    gshmemx_syncthreads();
    nvshmemx_putmem_nbi_warp(&a.dst[NT + t / 32 * 32], &a.src[t / 32 * 32], 32 * sizeof(int),
                             right);
    nvshmemx_flush_warp();
    nvshmemx_putmem_nbi_block(&a.dst[2 * NT], a.src, NT * sizeof(int), right);
    nvshmemx_flush_block();
    if (nvshmemx_region_stop_block(region) != NVSHMEMX_SUCCESS)
        nvshmem_int_atomic_add(a.fails, 1, me);
    nvshmem_quiet();
    nvshmemx_release_smem();

    if (t == 0) {
        nvshmemx_signal_op(a.sig, 5, NVSHMEM_SIGNAL_ADD, right);
        nvshmem_signal_wait_until(a.sig, NVSHMEM_CMP_EQ, 5);
        nvshmemx_signal_counted_reset(a.sig);
        if (nvshmem_signal_fetch(a.sig) != 0)
            nvshmem_int_atomic_add(a.fails, 1, me);
    }
}

int main(void)
{
    struct args a;

    nvshmem_init();
    int me = nvshmem_my_pe(), npes = nvshmem_n_pes(), left = (me + npes - 1) % npes;
    a.f = (float *)nvshmem_calloc(2, sizeof(float));
    a.d = (double *)nvshmem_calloc(2, sizeof(double));
    a.h = (nvshmem_half_t *)nvshmem_calloc(4, sizeof(nvshmem_half_t));
    a.src = (int *)nvshmem_calloc(NT, sizeof(int));
    a.dst = (int *)nvshmem_calloc(3 * NT, sizeof(int));
    a.sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    a.fails = (int *)nvshmem_calloc(1, sizeof(int));
    NV_CHECK("nvshmem_calloc != NULL", 0, 1,
             a.f && a.d && a.h && a.src && a.dst && a.sig && a.fails);
    nvshmem_barrier_all();

    NV_CHECK("GSHMEM_LAUNCH(v38)", 0, 0, GSHMEM_LAUNCH(v38, 1, NT, a));
    nvshmem_barrier_all();
    NV_CHECK("failures counted by the kernel", 0, 0, nvshmem_int_g(a.fails, me));
    NV_CHECK("nvshmemx_float_atomic_add", 0, NT, nvshmem_float_g(a.f, me));
    NV_CHECK("nvshmemx_float_atomic_fetch_add", 0, 2 * NT, nvshmem_float_g(a.f + 1, me));
    NV_CHECK("nvshmemx_double_atomic_fetch_add", 0, NT, nvshmem_double_g(a.d, me));
    NV_CHECK("nvshmemx_double_atomic_add", 0, 2 * NT, nvshmem_double_g(a.d + 1, me));
    NV_CHECK("nvshmemx_half_atomic_add", 0, NT, gshmemx_half_to_float(nvshmem_half_g(a.h, me)));
    NV_CHECK("nvshmemx_half_atomic_fetch_add", 0, NT,
             gshmemx_half_to_float(nvshmem_half_g(a.h + 1, me)));
    NV_CHECK("nvshmem_half_atomic_set", 0, 3,
             gshmemx_half_to_float(nvshmem_half_g(a.h + 2, me)));
    for (unsigned i = 0; i < 3 * NT; i++)
        NV_CHECK("put before nvshmemx_flush{,_warp,_block}", i,
                 i < NT ? left * 100 + (int)i : -1, nvshmem_int_g(a.dst + i, me));
    NV_CHECK("nvshmemx_signal_counted_reset", 0, 0, (long long)nvshmem_signal_fetch(a.sig));

    /* host forms */
    NV_CHECK("nvshmemx_ask_smem (host)", 0, 0, nvshmemx_ask_smem(NVSHMEMX_SMEM_MINIMUM));
#if defined(__CUDACC__)
    /* compiled, not run (no GPU in the tests) */
    int (*launch_attr)(const nvshmemx_collective_launch_attr_t *, const void *,
                       void **) = nvshmemx_collective_launch_attr;
    NV_CHECK("nvshmemx_collective_launch_attr", 0, 1, launch_attr != NULL);
#endif
    nvshmem_barrier_all();
    nvshmemx_float_atomic_add(a.f, 1.0f, left);
    nvshmemx_half_atomic_add(a.h, gshmemx_float_to_half(1.0f), left);
    NV_CHECK("nvshmem_half_atomic_swap (host)", 0, 4,
             gshmemx_half_to_float(
                 nvshmem_half_atomic_swap(a.h + 3, gshmemx_float_to_half(3.0f), me)));
    nvshmem_int_p(a.src, me, me);
    nvshmem_quiet();
    nvshmemx_region_handle_t region;
    NV_CHECK("nvshmemx_region_start (host)", 0, NVSHMEMX_SUCCESS,
             nvshmemx_region_start(&region, NULL));
    nvshmem_int_put_nbi(a.dst, a.src, 1, left);
    NV_CHECK("nvshmemx_region_stop (host)", 0, NVSHMEMX_SUCCESS, nvshmemx_region_stop(region));
    nvshmemx_flush();
    nvshmemx_flush_on_stream(0);
    nvshmemx_signal_counted_reset(a.sig);
    nvshmem_quiet();
    nvshmem_barrier_all();
    NV_CHECK("nvshmemx_float_atomic_add (host)", 0, NT + 1, nvshmem_float_g(a.f, me));
    NV_CHECK("nvshmemx_half_atomic_add (host)", 0, NT + 1,
             gshmemx_half_to_float(nvshmem_half_g(a.h, me)));
    NV_CHECK("nvshmem_int_put_nbi + nvshmemx_flush (host)", 0, (me + 1) % npes,
             nvshmem_int_g(a.dst, me));

    nvshmem_team_config_t conf = NVSHMEM_TEAM_CONFIG_INITIALIZER, got;
    nvshmem_team_t all, x, y;
    NV_CHECK("nvshmem_team_split_strided", 0, 0,
             nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 1, npes, &conf, 0, &all));
    NV_CHECK("nvshmem_team_n_pes (split)", 0, npes, nvshmem_team_n_pes(all));
    nvshmem_team_get_config(all, &got);
    NV_CHECK("nvshmem_team_get_config num_contexts", 0, 0, got.num_contexts);
    NV_CHECK("nvshmem_team_split_2d", 0, 0,
             nvshmem_team_split_2d(all, 1, NULL, 0, &x, NULL, 0, &y));
    NV_CHECK("nvshmem_team_n_pes (x)", 0, 1, nvshmem_team_n_pes(x));
    NV_CHECK("nvshmem_team_n_pes (y)", 0, npes, nvshmem_team_n_pes(y));
    nvshmem_team_destroy(y);
    nvshmem_team_destroy(x);
    nvshmem_team_destroy(all);

    nvshmem_barrier_all();
    nvshmem_free(a.fails);
    nvshmem_free(a.sig);
    nvshmem_free(a.dst);
    nvshmem_free(a.src);
    nvshmem_free(a.h);
    nvshmem_free(a.d);
    nvshmem_free(a.f);
    int rc = nv_done("nv_v38");
    nvshmem_finalize();
    return rc;
}
