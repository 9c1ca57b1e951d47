/*
 * tests/device/buffer.c - gshmemx_buffer_register (issue 18): a private
 * malloc'd buffer, registered, is the local source and destination of host
 * puts and gets (shmem_putmem, shmem_getmem) and of device ones
 * (gshmem_putmem, gshmem_getmem from a kernel) with the next PE, over
 * load/store and (the .net twin) through UCX with the buffer's own
 * registration, and through the proxy channels; then the return codes:
 * registering the same range or an overlapping one again, length 0 and
 * unregistering an unknown address give GSHMEMX_ERROR_INVALID_VALUE (each
 * logs a line; the bad_buf_* programs check the lines), unregister and
 * unregister_all give 0, and a range freed by them registers again.
 */
#include "dev_test.h"

#define N 4096

typedef struct buf_args {
    uint64_t *fails;
    unsigned char *local; /* registered, private to this PE */
    unsigned char *sym;   /* N bytes of the device heap */
    unsigned char *back;  /* registered: the get's destination */
    int next;
} buf_args_t;

GSHMEM_KERNEL(buf_kernel, buf_args_t, a)
{
    if (gshmemx_thread_id() == 0 && gshmemx_block_id() == 0) {
        gshmem_putmem(a.sym, a.local, N, a.next);
        gshmem_quiet();
    }
}

GSHMEM_KERNEL(buf_get_kernel, buf_args_t, a)
{
    if (gshmemx_thread_id() == 0 && gshmemx_block_id() == 0)
        gshmem_getmem(a.back, a.sym, N, a.next);
}

static void fill(unsigned char *p, int pe, unsigned salt)
{
    for (size_t i = 0; i < N; i++)
        p[i] = dt_pat(pe, i + salt);
}

static void expect(const char *routine, const unsigned char *p, int pe, unsigned salt)
{
    size_t i;

    for (i = 0; i < N && p[i] == dt_pat(pe, i + salt); i++)
        ;
    if (i < N) /* the first byte that differs */
        PT_CHECK_EQ_F(routine, (long long)dt_pat(pe, i + salt), (long long)p[i], "byte %zu", i);
}

int main(void)
{
    buf_args_t a;
    unsigned char *host;
    int prev;

    dt_start();
    prev = (dt_me + dt_npes - 1) % dt_npes;
    memset(&a, 0, sizeof(a));
    a.fails = dt_fails;
    a.next = (dt_me + 1) % dt_npes;
    a.local = (unsigned char *)malloc(N);
    a.back = (unsigned char *)malloc(N);
    host = (unsigned char *)malloc(N);
    a.sym = (unsigned char *)dt_malloc(N);
    PT_CHECK_EQ("gshmemx_buffer_register", GSHMEMX_SUCCESS,
                gshmemx_buffer_register(a.local, N));
    PT_CHECK_EQ("gshmemx_buffer_register", GSHMEMX_SUCCESS, gshmemx_buffer_register(a.back, N));

    /* host put from the registered buffer, host get into the other one */
    fill(a.local, dt_me, 0);
    shmem_putmem(a.sym, a.local, N, a.next);
    shmem_barrier_all();
    dt_from_dev(host, a.sym, N);
    expect("shmem_putmem from a registered buffer", host, prev, 0);
    shmem_getmem(a.back, a.sym, N, a.next);
    expect("shmem_getmem into a registered buffer", a.back, dt_me, 0);
    shmem_barrier_all();

    /* the same from device code */
    fill(a.local, dt_me, 7);
    DT_LAUNCH(buf_kernel, 1, 1, a);
    shmem_barrier_all();
    dt_from_dev(host, a.sym, N);
    expect("gshmem_putmem from a registered buffer", host, prev, 7);
    memset(a.back, 0, N);
    DT_LAUNCH(buf_get_kernel, 1, 1, a);
    expect("gshmem_getmem into a registered buffer", a.back, dt_me, 7);
    shmem_barrier_all();

    /* misuse: NVSHMEM's code, nothing registered (each prints one line) */
    PT_CHECK_EQ("gshmemx_buffer_register (the same range)", GSHMEMX_ERROR_INVALID_VALUE,
                gshmemx_buffer_register(a.local, N));
    PT_CHECK_EQ("gshmemx_buffer_register (overlapping)", GSHMEMX_ERROR_INVALID_VALUE,
                gshmemx_buffer_register(a.local + N / 2, N));
    PT_CHECK_EQ("gshmemx_buffer_register (length 0)", GSHMEMX_ERROR_INVALID_VALUE,
                gshmemx_buffer_register(host, 0));
    PT_CHECK_EQ("gshmemx_buffer_unregister (inside a buffer)", GSHMEMX_ERROR_INVALID_VALUE,
                gshmemx_buffer_unregister(a.local + 1));
    PT_CHECK_EQ("gshmemx_buffer_unregister", GSHMEMX_SUCCESS,
                gshmemx_buffer_unregister(a.local));
    PT_CHECK_EQ("gshmemx_buffer_unregister (again)", GSHMEMX_ERROR_INVALID_VALUE,
                gshmemx_buffer_unregister(a.local));
    /* freed ranges register again; unregister_all frees every one */
    PT_CHECK_EQ("gshmemx_buffer_register (after unregister)", GSHMEMX_SUCCESS,
                gshmemx_buffer_register(a.local + N / 2, N / 2));
    gshmemx_buffer_unregister_all();
    PT_CHECK_EQ("gshmemx_buffer_register (after unregister_all)", GSHMEMX_SUCCESS,
                gshmemx_buffer_register(a.back, N));
    PT_CHECK_EQ("gshmemx_buffer_register (after unregister_all)", GSHMEMX_SUCCESS,
                gshmemx_buffer_register(a.local, N));
    /* left registered: shmem_finalize releases them */
    shmem_barrier_all();
    gshmem_free(a.sym);
    free(host);
    free(a.back);
    free(a.local);
    return dt_finish();
}
