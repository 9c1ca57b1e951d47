/*
 * tests/device/hostrma.c - the host API on the device heap (issue 17):
 * host shmem_putmem / shmem_int_p into gshmem_malloc memory of the right
 * neighbour, checked by device code on that PE; device code writes its own
 * block and the host reads it from the left neighbour with shmem_getmem /
 * shmem_int_g; every PE adds 1 to PE 0's device-heap counter with host
 * shmem_int_atomic_fetch_add, checked there by device code; and host
 * gshmem_ptr: this PE's address, non-NULL for a mapped peer (P2P), NULL
 * through the proxy (GSHMEM_DISABLE_P2P=1) and outside the device heap.
 * Unlike the other tests/device programs, the host here reaches the device
 * heap through the host RMA routines on purpose.  On host lanes the device
 * heap is the host heap; on a GPU the same calls take the copy path (the
 * GPU kit runs it), except the atomic: host AMOs on GPU memory that P2P
 * maps are refused with a line (as NVSHMEM has no host AMOs over P2P), so
 * there it is left out.
 */
#include "dev_test.h"

#define N 64

typedef struct check_args {
    uint64_t *fails;
    int *buf; /* [N + 1]: a put of N ints from the left, then a p at [N] */
    int *ctr; /* the fetch-add counter, PE 0's */
    int me, npes, left;
    int host_amo; /* the host fetch-adds were made (not on a GPU) */
} check_args_t;

/* What the left neighbour put, seen on the device. */
GSHMEM_KERNEL(check_kernel, check_args_t, a)
{
    int i;

    for (i = (int)gshmemx_thread_id(); i < N; i += (int)gshmemx_block_threads())
        DT_CHECK(a.fails, "shmem_putmem (host, device heap)", "buf", i, a.left * 1000 + i,
                 a.buf[i]);
    if (gshmemx_thread_id() == 0) {
        DT_CHECK(a.fails, "shmem_int_p (host, device heap)", "buf", N, 7000 + a.left, a.buf[N]);
        if (a.me == 0 && a.host_amo)
            DT_CHECK(a.fails, "shmem_int_atomic_fetch_add (host, device heap)", "counter", 0,
                     a.npes, a.ctr[0]);
    }
}

typedef struct fill_args {
    int *buf;
    int me;
} fill_args_t;

/* Device code writes this PE's block for the host of the right neighbour. */
GSHMEM_KERNEL(fill_kernel, fill_args_t, a)
{
    int i;

    for (i = (int)gshmemx_thread_id(); i <= N; i += (int)gshmemx_block_threads())
        a.buf[i] = a.me * 100 + i;
}

int main(void)
{
    int src[N], got[N], i, pe, right, left, fetched, local = 0, bad = 0;
    check_args_t c;
    fill_args_t f;

    dt_start();
    right = (dt_me + 1) % dt_npes;
    left = (dt_me + dt_npes - 1) % dt_npes;
    c.fails = dt_fails;
    c.buf = (int *)dt_malloc((N + 1) * sizeof(int));
    c.ctr = (int *)dt_malloc(sizeof(int));
    c.me = dt_me;
    c.npes = dt_npes;
    c.left = left;
#if defined(__CUDACC__)
    c.host_amo = 0; /* PE 0 is its own P2P peer, even with GSHMEM_DISABLE_P2P */
#else
    c.host_amo = 1;
#endif
    dt_fill(c.buf, 0, (N + 1) * sizeof(int));
    dt_fill(c.ctr, 0, sizeof(int));
    shmem_barrier_all();

    /* host -> device heap */
    for (i = 0; i < N; i++)
        src[i] = dt_me * 1000 + i;
    shmem_putmem(c.buf, src, sizeof(src), right);
    shmem_int_p(&c.buf[N], 7000 + dt_me, right);
    if (c.host_amo) {
        fetched = shmem_int_atomic_fetch_add(c.ctr, 1, 0);
        PT_CHECK("shmem_int_atomic_fetch_add (host, device heap)",
                 fetched >= 0 && fetched < dt_npes, "a fetched value from 0 to n_pes - 1");
    }
    shmem_quiet();
    shmem_barrier_all();
    DT_LAUNCH(check_kernel, 1, dt_threads(), c);
    shmem_barrier_all();

    /* device heap -> host */
    f.buf = c.buf;
    f.me = dt_me;
    DT_LAUNCH(fill_kernel, 1, dt_threads(), f);
    shmem_barrier_all();
    shmem_getmem(got, c.buf, sizeof(got), left);
    for (i = 0; i < N; i++)
        bad += got[i] != left * 100 + i;
    PT_CHECK_EQ_F("shmem_getmem (host, device heap)", 0, bad, "ints of PE %d's block wrong",
                  left);
    PT_CHECK_EQ("shmem_int_g (host, device heap)", left * 100 + N,
                shmem_int_g(&c.buf[N], left));

    /* host gshmem_ptr */
    PT_CHECK("gshmem_ptr (host)", gshmem_ptr(c.buf, dt_me) == (void *)c.buf,
             "this PE's own address");
    PT_CHECK("gshmem_ptr (host)", gshmem_ptr(&local, dt_me) == NULL,
             "NULL outside the device heap");
    for (pe = 0; pe < dt_npes; pe++)
        if (pe != dt_me)
            PT_CHECK_EQ_F("gshmem_ptr (host)", !dt_proxy_mode(), gshmem_ptr(c.buf, pe) != NULL,
                          "non-NULL for PE %d (1: P2P, 0: through the proxy)", pe);

    shmem_barrier_all();
    gshmem_free(c.ctr);
    gshmem_free(c.buf);
    return dt_finish();
}
