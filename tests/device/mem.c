/*
 * tests/device/mem.c - the device heap: gshmem_malloc, gshmem_calloc,
 * gshmem_align and gshmem_free (sizes from 1 byte to 16 MiB, alignments to
 * 1 MiB, calloc zeroing reused memory, many blocks alive and freed out of
 * order, NULL for size 0, a bad alignment and an overflowing count), and
 * gshmem_ptr: this PE's own address, a peer's mapping in P2P mode, NULL
 * through the proxy (GSHMEM_DISABLE_P2P=1) and for memory outside the heap;
 * a kernel stores into its right neighbour's block through gshmem_ptr.
 * gshmem_free completes what device code queued: a kernel puts 4 MiB to
 * its right neighbour with put_nbi and no quiet, the host frees another
 * block, and the data must all be there when the free returns.
 */
#include "dev_test.h"

#define NB 8

typedef struct ptr_args {
    uint64_t *fails;
    uint64_t *buf; /* [npes] words: PE p stores into slot p through gshmem_ptr */
    int me, npes, p2p;
} ptr_args_t;

GSHMEM_KERNEL(ptr_kernel, ptr_args_t, a)
{
    uint64_t local = 0;
    int pe;

    DT_CHECK_TRUE(a.fails, "gshmem_ptr", "is the address itself on this PE", a.me,
                  gshmem_ptr(a.buf, a.me) == (void *)a.buf);
    DT_CHECK_TRUE(a.fails, "gshmem_ptr", "is NULL outside the heap", a.me,
                  gshmem_ptr(&local, a.me) == NULL);
    for (pe = 0; pe < a.npes; pe++) {
        uint64_t *r = (uint64_t *)gshmem_ptr(a.buf, pe);

        if (pe == a.me)
            continue;
        DT_CHECK(a.fails, "gshmem_ptr", "is not NULL (P2P) or NULL (proxy) for PE", pe, a.p2p,
                 r != NULL);
        if (r)
            r[a.me] = 1000 + (uint64_t)a.me;
        else
            gshmem_uint64_p(&a.buf[a.me], 1000 + (uint64_t)a.me, pe);
    }
    a.buf[a.me] = 1000 + (uint64_t)a.me;
    gshmem_quiet();
}

typedef struct nbi_args {
    unsigned char *dst, *src;
    size_t n;
    int right;
} nbi_args_t;

/* A put that may still be in the proxy when the kernel returns. */
GSHMEM_KERNEL(nbi_kernel, nbi_args_t, a)
{
    gshmem_putmem_nbi(a.dst, a.src, a.n, a.right);
}

/* gshmem_free's barrier comes after this PE's proxy work has completed. */
static void check_free_completes(void)
{
    const size_t n = 4 << 20;
    nbi_args_t a = {(unsigned char *)gshmem_malloc(n), (unsigned char *)gshmem_malloc(n), n,
                    (dt_me + 1) % dt_npes};
    void *other = gshmem_malloc(64);
    unsigned char *c;
    size_t j, bad = 0;
    int left = (dt_me + dt_npes - 1) % dt_npes;

    PT_CHECK_EQ_F("gshmem_malloc", 1, a.dst && a.src && other, "two blocks of %zu bytes", n);
    if (!a.dst || !a.src || !other)
        return;
    dt_fill(a.dst, 0, n);
    dt_fill(a.src, 0x40 + dt_me, n);
    shmem_barrier_all();
    DT_LAUNCH(nbi_kernel, 1, 1, a);
    gshmem_free(other);
    c = (unsigned char *)dt_copy_back(a.dst, n);
    for (j = 0; j < n; j++)
        bad += c[j] != 0x40 + left;
    PT_CHECK_EQ_F("gshmem_free", 0, bad,
                  "bytes of PE %d's 4 MiB put_nbi missing when it returned", left);
    free(c);
    gshmem_free(a.src);
    gshmem_free(a.dst);
}

int main(void)
{
    static const size_t sizes[NB] = {1, 100, 4096, 8, 1 << 20, 3, 16 << 20, 65};
    static const size_t aligns[] = {8, 64, 4096, 65536, 1 << 20};
    void *blk[NB];
    ptr_args_t a;
    uint64_t *h;
    size_t i;
    int pe;

    dt_start();

    /* many blocks alive at once, each written whole, freed out of order */
    for (i = 0; i < NB; i++) {
        blk[i] = gshmem_malloc(sizes[i]);
        PT_CHECK_EQ_F("gshmem_malloc", 1, blk[i] != NULL, "a block of %zu bytes", sizes[i]);
        if (blk[i])
            dt_fill(blk[i], (int)(i + 1), sizes[i]);
    }
    for (i = 0; i < NB; i++)
        if (blk[i]) {
            unsigned char *c = (unsigned char *)dt_copy_back(blk[i], sizes[i]);
            size_t j, bad = 0;

            for (j = 0; j < sizes[i]; j++)
                bad += c[j] != i + 1;
            PT_CHECK_EQ_F("gshmem_malloc", 0, bad, "bytes of the %zu-byte block overwritten",
                          sizes[i]);
            free(c);
        }
    for (i = 0; i < NB; i += 2)
        gshmem_free(blk[i]);
    for (i = 1; i < NB; i += 2)
        gshmem_free(blk[i]);

    /* calloc zeroes memory that held data */
    for (i = 0; i < 3; i++) {
        size_t n = (size_t)4096 << (4 * i);
        unsigned char *p = (unsigned char *)gshmem_malloc(n), *c;
        size_t j, bad = 0;

        dt_fill(p, 0xff, n);
        gshmem_free(p);
        p = (unsigned char *)gshmem_calloc(n / 8, 8);
        PT_CHECK_EQ_F("gshmem_calloc", 1, p != NULL, "%zu x 8 bytes", n / 8);
        if (!p)
            continue;
        c = (unsigned char *)dt_copy_back(p, n);
        for (j = 0; j < n; j++)
            bad += c[j] != 0;
        PT_CHECK_EQ_F("gshmem_calloc", 0, bad, "nonzero bytes of %zu", n);
        free(c);
        gshmem_free(p);
    }

    /* alignments */
    for (i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
        void *p = gshmem_align(aligns[i], 24);

        PT_CHECK_EQ_F("gshmem_align", 1, p != NULL, "24 bytes aligned to %zu", aligns[i]);
        PT_CHECK_EQ_F("gshmem_align", 0, (uintptr_t)p % aligns[i], "address %% %zu", aligns[i]);
        gshmem_free(p);
    }

    /* no room: NULL everywhere */
    PT_CHECK_PTR("gshmem_malloc", NULL, gshmem_malloc(0));
    PT_CHECK_PTR("gshmem_align", NULL, gshmem_align(48, 64));
    PT_CHECK_PTR("gshmem_calloc", NULL, gshmem_calloc(SIZE_MAX / 4, 8));

    /* gshmem_ptr, on the host (host lanes: the device functions run anywhere) and in a kernel */
    a.fails = dt_fails;
    a.me = dt_me;
    a.npes = dt_npes;
    a.p2p = !dt_proxy_mode();
    a.buf = (uint64_t *)gshmem_calloc((size_t)dt_npes, sizeof(uint64_t));
#if !defined(__CUDACC__)
    PT_CHECK_PTR("gshmem_ptr", a.buf, gshmem_ptr(a.buf, dt_me));
    for (pe = 0; pe < dt_npes; pe++)
        if (pe != dt_me)
            PT_CHECK_EQ_F("gshmem_ptr", a.p2p, gshmem_ptr(a.buf, pe) != NULL,
                          "(host) a peer's mapping, NULL only via the proxy: PE %d", pe);
#endif
    shmem_barrier_all();
    DT_LAUNCH(ptr_kernel, 1, 1, a);
    shmem_barrier_all();
    h = (uint64_t *)dt_copy_back(a.buf, (size_t)dt_npes * sizeof(uint64_t));
    for (pe = 0; pe < dt_npes; pe++)
        PT_CHECK_EQ_F("gshmem_ptr", 1000 + pe, h[pe], "the word PE %d stored here", pe);
    free(h);
    shmem_barrier_all();
    gshmem_free(a.buf);
    check_free_completes();
    return dt_finish();
}
