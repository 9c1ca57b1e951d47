/*
 * tests/device/proxy_strided.c - strided iput and iget with odd strides, as
 * the proxy carries them out: one descriptor per call (GSD_OP_IPUT/IGET),
 * walked element by element by the proxy (run through it by the -net.net
 * twin; the .pe run checks the same on the load/store path).
 *
 * Every case is an element size (1 to 16 bytes) and a (dest, source)
 * stride pair, with an odd element count, on an area of its own.  Each PE
 * iputs from its src into its right neighbour's pdst, and igets from its
 * left neighbour's src into its own gdst, at thread scope (one lane per
 * case) and at warp scope (one warp, every case in turn, on areas of its
 * own).  The host then checks every byte: the left neighbour's pattern
 * where an element landed, DT_SENT in the gaps.
 */
#include "dev_test.h"

#define NEL 37 /* elements per case: odd */
#define N_SIZES 5
#define N_STRIDES 4
#define N_CASES (N_SIZES * N_STRIDES)
#define AREA (NEL * 7 * 16) /* the largest stride times the largest element */

DT_HD size_t case_size(unsigned c)
{
    return (size_t)1 << (c % N_SIZES); /* 1, 2, 4, 8, 16 */
}

/* (dest, source) strides in elements: odd, unequal, and 1 on one side. */
DT_HD ptrdiff_t case_dst_st(unsigned c)
{
    switch (c / N_SIZES) {
    case 0: return 3;
    case 1: return 7;
    case 2: return 1;
    default: return 5;
    }
}

DT_HD ptrdiff_t case_src_st(unsigned c)
{
    switch (c / N_SIZES) {
    case 0: return 5;
    case 1: return 1;
    case 2: return 3;
    default: return 5;
    }
}

typedef struct strided_args {
    char *src, *pdst, *gdst;
    int left, right;
    unsigned set; /* 0: the thread-scope areas, 1: the warp-scope ones */
} strided_args_t;

/* Case c of scope g (GSD_THREAD or GSD_WARP), on the areas of set `set`. */
DT_FN void run_case(const strided_args_t *a, unsigned c, int warp)
{
    size_t at = ((size_t)a->set * N_CASES + c) * AREA;
    ptrdiff_t dst = case_dst_st(c), sst = case_src_st(c);
    char *pd = a->pdst + at, *gd = a->gdst + at;
    const char *s = a->src + at;

#define STRIDED_CASE(BITS)                                                                     \
    if (warp) {                                                                                \
        gshmemx_iput##BITS##_warp(pd, s, dst, sst, NEL, a->right);                             \
        gshmemx_iget##BITS##_warp(gd, s, dst, sst, NEL, a->left);                              \
    } else {                                                                                   \
        gshmem_iput##BITS(pd, s, dst, sst, NEL, a->right);                                     \
        gshmem_iget##BITS(gd, s, dst, sst, NEL, a->left);                                      \
    }
    switch (case_size(c)) {
    case 1: STRIDED_CASE(8) break;
    case 2: STRIDED_CASE(16) break;
    case 4: STRIDED_CASE(32) break;
    case 8: STRIDED_CASE(64) break;
    default: STRIDED_CASE(128) break;
    }
#undef STRIDED_CASE
}

GSHMEM_KERNEL(thread_kernel, strided_args_t, a)
{
    unsigned c = gshmemx_thread_id();

    if (c < N_CASES)
        run_case(&a, c, 0);
    gshmem_quiet();
}

GSHMEM_KERNEL(warp_kernel, strided_args_t, a)
{
    for (unsigned c = 0; c < N_CASES; c++)
        run_case(&a, c, 1);
    gshmem_quiet();
}

/* Buffer `what` (pdst or gdst) holds, in set `set`, left's src elements at
 * their strided places and DT_SENT elsewhere. */
static void check(const char *what, const unsigned char *h, unsigned set, int left)
{
    for (unsigned c = 0; c < N_CASES; c++) {
        size_t at = ((size_t)set * N_CASES + c) * AREA, size = case_size(c);
        ptrdiff_t dst = case_dst_st(c), sst = case_src_st(c);
        unsigned char *want = (unsigned char *)malloc(AREA);

        memset(want, DT_SENT, AREA);
        for (size_t i = 0; i < NEL; i++)
            for (size_t b = 0; b < size; b++)
                want[i * (size_t)dst * size + b] = dt_pat(left,
                                                          at + i * (size_t)sst * size + b);
        for (size_t j = 0; j < AREA; j++)
            if (h[at + j] != want[j]) {
                PT_CHECK_EQ_F(what, want[j], h[at + j],
                              "%s scope, %zu-byte elements, strides %td/%td, byte %zu",
                              set ? "warp" : "thread", size, dst, sst, j);
                break;
            }
        free(want);
    }
}

int main(void)
{
    const size_t n = 2 * N_CASES * AREA;
    strided_args_t a;
    unsigned char *h;

    dt_start();
    a.src = (char *)dt_malloc(n);
    a.pdst = (char *)dt_malloc(n);
    a.gdst = (char *)dt_malloc(n);
    a.left = (dt_me + dt_npes - 1) % dt_npes;
    a.right = (dt_me + 1) % dt_npes;
    dt_fill_pat(a.src, n, dt_me, 0);
    dt_fill(a.pdst, DT_SENT, n);
    dt_fill(a.gdst, DT_SENT, n);
    shmem_barrier_all();
    a.set = 0;
    DT_LAUNCH(thread_kernel, 1, N_CASES, a);
    a.set = 1;
    DT_LAUNCH(warp_kernel, 1, DT_WARP, a);
    shmem_barrier_all();
    h = (unsigned char *)dt_copy_back(a.pdst, n);
    check("gshmem_iput", h, 0, a.left);
    check("gshmemx_iput_warp", h, 1, a.left);
    free(h);
    h = (unsigned char *)dt_copy_back(a.gdst, n);
    check("gshmem_iget", h, 0, a.left);
    check("gshmemx_iget_warp", h, 1, a.left);
    free(h);
    gshmem_free(a.gdst);
    gshmem_free(a.pdst);
    gshmem_free(a.src);
    return dt_finish();
}
