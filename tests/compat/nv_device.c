/*
 * tests/compat/nv_device.c - an NVSHMEM kernel: one block puts an int per
 * thread (nvshmem_int_p) and a buffer (nvshmemx_putmem_block) to the right
 * PE, quiets, then sets the right PE's signal (nvshmemx_signal_op) and
 * waits for its own (nvshmem_signal_wait_until), and checks what the left
 * PE sent.  The host reads the failure count with nvshmem_int_g.
 */
#include "nv_test.h"

#include <stdint.h>

#define NT 64u  /* threads of the block */
#define NB 512u /* ints of the block put */

struct args {
    int *p_dst;   /* NT ints, from the left PE's nvshmem_int_p */
    int *blk_dst; /* NB ints, from the left PE's nvshmemx_putmem_block */
    int *blk_src; /* NB ints, this PE's */
    uint64_t *sig;
    int *fails;
};

GSHMEM_KERNEL(exchange, struct args, a)
{
    int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    unsigned t = gshmemx_thread_id(), nt = gshmemx_block_threads();

    for (unsigned i = t; i < NB; i += nt)
        a.blk_src[i] = me * 10000 + (int)i;
    gshmemx_syncthreads();

    nvshmem_int_p(&a.p_dst[t], me * 100 + (int)t, right);
    nvshmemx_putmem_block(a.blk_dst, a.blk_src, NB * sizeof(int), right);
    nvshmem_quiet();
    gshmemx_syncthreads();
    if (t == 0) {
        nvshmemx_signal_op(a.sig, 1, NVSHMEM_SIGNAL_SET, right);
        nvshmem_signal_wait_until(a.sig, NVSHMEM_CMP_EQ, 1);
    }
    gshmemx_syncthreads();

    if (nvshmem_team_my_pe(NVSHMEM_TEAM_WORLD) != me)
        nvshmem_int_atomic_add(a.fails, 1, me);
    if (a.p_dst[t] != left * 100 + (int)t) {
        printf("FAIL PE %d: p_dst[%u]: expected %d, got %d\n", me, t, left * 100 + (int)t,
               a.p_dst[t]);
        nvshmem_int_atomic_add(a.fails, 1, me);
    }
    for (unsigned i = t; i < NB; i += nt)
        if (a.blk_dst[i] != left * 10000 + (int)i) {
            printf("FAIL PE %d: blk_dst[%u]: expected %d, got %d\n", me, i,
                   left * 10000 + (int)i, a.blk_dst[i]);
            nvshmem_int_atomic_add(a.fails, 1, me);
        }
}

int main(void)
{
    struct args a;

    nvshmem_init();
    int me = nvshmem_my_pe();
    a.p_dst = (int *)nvshmem_calloc(NT, sizeof(int));
    a.blk_dst = (int *)nvshmem_calloc(NB, sizeof(int));
    a.blk_src = (int *)nvshmem_malloc(NB * sizeof(int));
    a.sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    a.fails = (int *)nvshmem_calloc(1, sizeof(int));
    NV_CHECK("nvshmem_calloc != NULL", 0, 1,
             a.p_dst && a.blk_dst && a.blk_src && a.sig && a.fails);
    nvshmem_barrier_all();

    NV_CHECK("GSHMEM_LAUNCH(exchange)", 0, 0, GSHMEM_LAUNCH(exchange, 1, NT, a));
    nvshmem_barrier_all();
    NV_CHECK("failures counted by the kernel", 0, 0, nvshmem_int_g(a.fails, me));
    NV_CHECK("signal", 0, 1, (long long)nvshmem_signal_fetch(a.sig));

    nvshmem_barrier_all();
    nvshmem_free(a.fails);
    nvshmem_free(a.sig);
    nvshmem_free(a.blk_src);
    nvshmem_free(a.blk_dst);
    nvshmem_free(a.p_dst);
    int rc = nv_done("nv_device");
    nvshmem_finalize();
    return rc;
}
