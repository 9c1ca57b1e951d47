/*
 * tests/pe/rma.c - the RMA routines: put, p, iput, ibput, put_nbi, get, g,
 * iget, ibget and get_nbi, in their TYPENAME, SIZE and mem forms, with and
 * without a context, from every PE to every PE (itself included).
 *
 * Puts: every PE writes its pattern VAL(me, i) into its own slot of region
 * [op] on every PE; after quiet and a barrier each PE checks every slot
 * element by element, including the gaps a strided routine must not touch.
 * Gets: every PE reads the pattern of every PE and checks the same layout.
 * The typed checks are generated from the type table (GSHMEM_RMA_TYPES).
 */
#include "pe_test.h"
#include <gshmem/typetable.h>

#define NE 16         /* elements one routine call moves */
#define SLOT (4 * NE) /* elements per (op, PE) slot: room for the strides */
#define SENT 127      /* what untouched elements hold; VAL never yields it */
#define VAL(pe, i) (((pe)*37 + (i)*5 + 1) % 127)

/* iput/iget: dest stride, source stride (elements). */
#define IS_D 3
#define IS_S 2
/* ibput/ibget: dest block stride, source block stride, block size, blocks. */
#define IB_D 5
#define IB_S 4
#define IB_B 3
#define IB_N 8

enum { CONTIG, STRIDED, BLOCKED };

/* The ops of each form, in this order; the ib ones (1.6) come last so an
 * older shmem.h just runs fewer. */
static const int shape[] = {CONTIG, CONTIG,  CONTIG,  CONTIG,  CONTIG,
                            CONTIG, STRIDED, STRIDED, BLOCKED, BLOCKED};
#if PT_SPEC >= 106
#define N_TYPED_OPS 10
#else
#define N_TYPED_OPS 8
#endif

static int me, npes;
static unsigned char *sym_dst; /* N_TYPED_OPS regions of npes slots */
static unsigned char *sym_src; /* one slot, read by the gets */

/* The source element that ends up at element j of the destination, or -1
 * where the routine must leave the destination alone. */
static long src_of(int shp, long j)
{
    switch (shp) {
    case CONTIG: return j < NE ? j : -1;
    case STRIDED: return (j % IS_D == 0 && j / IS_D < NE) ? j / IS_D * IS_S : -1;
    default: return (j % IB_D < IB_B && j / IB_D < IB_N) ? j / IB_D * IB_S + j % IB_D : -1;
    }
}

#if PT_SPEC >= 106
#define IB_PUT_CASES(N)                                                                        \
    case 8: shmem_##N##_ibput(d, loc, IB_D, IB_S, IB_B, IB_N, pe); break;                      \
    case 9:                                                                                    \
        shmem_ctx_##N##_ibput(ctx, d, loc, IB_D, IB_S, IB_B, IB_N, pe);                        \
        break;
#define IB_GET_CASES(N)                                                                        \
    case 8: shmem_##N##_ibget(got, src, IB_D, IB_S, IB_B, IB_N, pe); break;                    \
    case 9:                                                                                    \
        shmem_ctx_##N##_ibget(ctx, got, src, IB_D, IB_S, IB_B, IB_N, pe);                      \
        break;
#else
#define IB_PUT_CASES(N)
#define IB_GET_CASES(N)
#endif

#define TYPED_TEST(T, N)                                                                       \
    static void test_##N(shmem_ctx_t ctx)                                                      \
    {                                                                                          \
        static const char *const put_name[] =                                                  \
            {"shmem_" #N "_put",      "shmem_ctx_" #N "_put",  "shmem_" #N "_p",               \
             "shmem_ctx_" #N "_p",    "shmem_" #N "_put_nbi",  "shmem_ctx_" #N "_put_nbi",     \
             "shmem_" #N "_iput",     "shmem_ctx_" #N "_iput", "shmem_" #N "_ibput",           \
             "shmem_ctx_" #N "_ibput"};                                                        \
        static const char *const get_name[] =                                                  \
            {"shmem_" #N "_get",      "shmem_ctx_" #N "_get",  "shmem_" #N "_g",               \
             "shmem_ctx_" #N "_g",    "shmem_" #N "_get_nbi",  "shmem_ctx_" #N "_get_nbi",     \
             "shmem_" #N "_iget",     "shmem_ctx_" #N "_iget", "shmem_" #N "_ibget",           \
             "shmem_ctx_" #N "_ibget"};                                                        \
        T *dst = (T *)sym_dst, *src = (T *)sym_src;                                            \
        T loc[SLOT], got[SLOT];                                                                \
        long i, j;                                                                             \
        int op, k, q;                                                                          \
                                                                                               \
        for (i = 0; i < SLOT; i++)                                                             \
            loc[i] = (T)VAL(me, i);                                                            \
        for (j = 0; j < (long)N_TYPED_OPS * npes * SLOT; j++)                                  \
            dst[j] = (T)SENT;                                                                  \
        shmem_barrier_all();                                                                   \
        for (op = 0; op < N_TYPED_OPS; op++)                                                   \
            for (k = 0; k < npes; k++) {                                                       \
                int pe = (me + k) % npes;                                                      \
                T *d = dst + ((long)op * npes + me) * SLOT;                                    \
                switch (op) {                                                                  \
                case 0: shmem_##N##_put(d, loc, NE, pe); break;                                \
                case 1: shmem_ctx_##N##_put(ctx, d, loc, NE, pe); break;                       \
                case 2:                                                                        \
                    for (i = 0; i < NE; i++)                                                   \
                        shmem_##N##_p(d + i, loc[i], pe);                                      \
                    break;                                                                     \
                case 3:                                                                        \
                    for (i = 0; i < NE; i++)                                                   \
                        shmem_ctx_##N##_p(ctx, d + i, loc[i], pe);                             \
                    break;                                                                     \
                case 4: shmem_##N##_put_nbi(d, loc, NE, pe); break;                            \
                case 5: shmem_ctx_##N##_put_nbi(ctx, d, loc, NE, pe); break;                   \
                case 6: shmem_##N##_iput(d, loc, IS_D, IS_S, NE, pe); break;                   \
                case 7:                                                                        \
                    shmem_ctx_##N##_iput(ctx, d, loc, IS_D, IS_S, NE, pe);                     \
                    break;                                                                     \
                    IB_PUT_CASES(N)                                                            \
                }                                                                              \
            }                                                                                  \
        shmem_quiet();                                                                         \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        for (op = 0; op < N_TYPED_OPS; op++)                                                   \
            for (q = 0; q < npes; q++)                                                         \
                for (j = 0; j < SLOT; j++) {                                                   \
                    long s = src_of(shape[op], j);                                             \
                    PT_CHECK_EQ_F(put_name[op], s < 0 ? SENT : VAL(q, s),                      \
                                  dst[((long)op * npes + q) * SLOT + j],                       \
                                  "dest[%ld] put by PE %d", j, q);                             \
                }                                                                              \
                                                                                               \
        for (i = 0; i < SLOT; i++)                                                             \
            src[i] = (T)VAL(me, i);                                                            \
        shmem_barrier_all();                                                                   \
        for (op = 0; op < N_TYPED_OPS; op++)                                                   \
            for (k = 0; k < npes; k++) {                                                       \
                int pe = (me + k) % npes;                                                      \
                for (j = 0; j < SLOT; j++)                                                     \
                    got[j] = (T)SENT;                                                          \
                switch (op) {                                                                  \
                case 0: shmem_##N##_get(got, src, NE, pe); break;                              \
                case 1: shmem_ctx_##N##_get(ctx, got, src, NE, pe); break;                     \
                case 2:                                                                        \
                    for (i = 0; i < NE; i++)                                                   \
                        got[i] = shmem_##N##_g(src + i, pe);                                   \
                    break;                                                                     \
                case 3:                                                                        \
                    for (i = 0; i < NE; i++)                                                   \
                        got[i] = shmem_ctx_##N##_g(ctx, src + i, pe);                          \
                    break;                                                                     \
                case 4:                                                                        \
                    shmem_##N##_get_nbi(got, src, NE, pe);                                     \
                    shmem_quiet();                                                             \
                    break;                                                                     \
                case 5:                                                                        \
                    shmem_ctx_##N##_get_nbi(ctx, got, src, NE, pe);                            \
                    shmem_ctx_quiet(ctx);                                                      \
                    break;                                                                     \
                case 6: shmem_##N##_iget(got, src, IS_D, IS_S, NE, pe); break;                 \
                case 7:                                                                        \
                    shmem_ctx_##N##_iget(ctx, got, src, IS_D, IS_S, NE, pe);                   \
                    break;                                                                     \
                    IB_GET_CASES(N)                                                            \
                }                                                                              \
                for (j = 0; j < SLOT; j++) {                                                   \
                    long s = src_of(shape[op], j);                                             \
                    PT_CHECK_EQ_F(get_name[op], s < 0 ? SENT : VAL(pe, s), got[j],             \
                                  "dest[%ld] read from PE %d", j, pe);                         \
                }                                                                              \
            }                                                                                  \
        shmem_barrier_all(); /* the next test rewrites src */                                  \
    }
GSHMEM_RMA_TYPES(TYPED_TEST)
#undef TYPED_TEST

/* The SIZE forms move BYTES-byte elements; no p/g, so put, put_nbi, iput and
 * ibput (ops 0, 1, 4, 5, 6, 7, 8, 9 of the table above: op 2 and 3 skipped). */
#if PT_SPEC >= 106
#define IB_SIZE_PUT_CASES(BITS)                                                                \
    case 8: shmem_ibput##BITS(d, loc, IB_D, IB_S, IB_B, IB_N, pe); break;                      \
    case 9:                                                                                    \
        shmem_ctx_ibput##BITS(ctx, d, loc, IB_D, IB_S, IB_B, IB_N, pe);                        \
        break;
#define IB_SIZE_GET_CASES(BITS)                                                                \
    case 8: shmem_ibget##BITS(got, src, IB_D, IB_S, IB_B, IB_N, pe); break;                    \
    case 9:                                                                                    \
        shmem_ctx_ibget##BITS(ctx, got, src, IB_D, IB_S, IB_B, IB_N, pe);                      \
        break;
#else
#define IB_SIZE_PUT_CASES(BITS)
#define IB_SIZE_GET_CASES(BITS)
#endif

#define SIZED_TEST(BITS, BYTES)                                                                \
    static void test_size##BITS(shmem_ctx_t ctx)                                               \
    {                                                                                          \
        static const char *const put_name[] = {"shmem_put" #BITS,                              \
                                               "shmem_ctx_put" #BITS,                          \
                                               "",                                             \
                                               "",                                             \
                                               "shmem_put" #BITS "_nbi",                       \
                                               "shmem_ctx_put" #BITS "_nbi",                   \
                                               "shmem_iput" #BITS,                             \
                                               "shmem_ctx_iput" #BITS,                         \
                                               "shmem_ibput" #BITS,                            \
                                               "shmem_ctx_ibput" #BITS};                       \
        static const char *const get_name[] = {"shmem_get" #BITS,                              \
                                               "shmem_ctx_get" #BITS,                          \
                                               "",                                             \
                                               "",                                             \
                                               "shmem_get" #BITS "_nbi",                       \
                                               "shmem_ctx_get" #BITS "_nbi",                   \
                                               "shmem_iget" #BITS,                             \
                                               "shmem_ctx_iget" #BITS,                         \
                                               "shmem_ibget" #BITS,                            \
                                               "shmem_ctx_ibget" #BITS};                       \
        unsigned char *dst = sym_dst, *src = sym_src;                                          \
        long double loc_[SLOT * BYTES / sizeof(long double) + 1];                              \
        long double got_[SLOT * BYTES / sizeof(long double) + 1];                              \
        unsigned char *loc = (unsigned char *)loc_, *got = (unsigned char *)got_;              \
        long i, j, b;                                                                          \
        int op, k, q;                                                                          \
                                                                                               \
        for (i = 0; i < SLOT * BYTES; i++)                                                     \
            loc[i] = (unsigned char)VAL(me, i);                                                \
        memset(dst, SENT, (size_t)N_TYPED_OPS *npes *SLOT *BYTES);                             \
        shmem_barrier_all();                                                                   \
        for (op = 0; op < N_TYPED_OPS; op++)                                                   \
            for (k = 0; k < npes && (op != 2 && op != 3); k++) {                               \
                int pe = (me + k) % npes;                                                      \
                unsigned char *d = dst + ((long)op * npes + me) * SLOT * BYTES;                \
                switch (op) {                                                                  \
                case 0: shmem_put##BITS(d, loc, NE, pe); break;                                \
                case 1: shmem_ctx_put##BITS(ctx, d, loc, NE, pe); break;                       \
                case 4: shmem_put##BITS##_nbi(d, loc, NE, pe); break;                          \
                case 5: shmem_ctx_put##BITS##_nbi(ctx, d, loc, NE, pe); break;                 \
                case 6: shmem_iput##BITS(d, loc, IS_D, IS_S, NE, pe); break;                   \
                case 7:                                                                        \
                    shmem_ctx_iput##BITS(ctx, d, loc, IS_D, IS_S, NE, pe);                     \
                    break;                                                                     \
                    IB_SIZE_PUT_CASES(BITS)                                                    \
                }                                                                              \
            }                                                                                  \
        shmem_quiet();                                                                         \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        for (op = 0; op < N_TYPED_OPS; op++)                                                   \
            for (q = 0; q < npes && (op != 2 && op != 3); q++)                                 \
                for (j = 0; j < SLOT; j++)                                                     \
                    for (b = 0; b < BYTES; b++) {                                              \
                        long s = src_of(shape[op], j);                                         \
                        PT_CHECK_EQ_F(put_name[op], s < 0 ? SENT : VAL(q, s * BYTES + b),      \
                                      dst[(((long)op * npes + q) * SLOT + j) * BYTES + b],     \
                                      "byte %ld of dest[%ld] put by PE %d", b, j, q);          \
                    }                                                                          \
                                                                                               \
        for (i = 0; i < SLOT * BYTES; i++)                                                     \
            src[i] = (unsigned char)VAL(me, i);                                                \
        shmem_barrier_all();                                                                   \
        for (op = 0; op < N_TYPED_OPS; op++)                                                   \
            for (k = 0; k < npes && (op != 2 && op != 3); k++) {                               \
                int pe = (me + k) % npes;                                                      \
                memset(got, SENT, SLOT *BYTES);                                                \
                switch (op) {                                                                  \
                case 0: shmem_get##BITS(got, src, NE, pe); break;                              \
                case 1: shmem_ctx_get##BITS(ctx, got, src, NE, pe); break;                     \
                case 4:                                                                        \
                    shmem_get##BITS##_nbi(got, src, NE, pe);                                   \
                    shmem_quiet();                                                             \
                    break;                                                                     \
                case 5:                                                                        \
                    shmem_ctx_get##BITS##_nbi(ctx, got, src, NE, pe);                          \
                    shmem_ctx_quiet(ctx);                                                      \
                    break;                                                                     \
                case 6: shmem_iget##BITS(got, src, IS_D, IS_S, NE, pe); break;                 \
                case 7:                                                                        \
                    shmem_ctx_iget##BITS(ctx, got, src, IS_D, IS_S, NE, pe);                   \
                    break;                                                                     \
                    IB_SIZE_GET_CASES(BITS)                                                    \
                }                                                                              \
                for (j = 0; j < SLOT; j++)                                                     \
                    for (b = 0; b < BYTES; b++) {                                              \
                        long s = src_of(shape[op], j);                                         \
                        PT_CHECK_EQ_F(get_name[op], s < 0 ? SENT : VAL(pe, s * BYTES + b),     \
                                      got[j * BYTES + b],                                      \
                                      "byte %ld of dest[%ld] read from PE %d", b, j, pe);      \
                    }                                                                          \
            }                                                                                  \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_SIZES(SIZED_TEST)
#undef SIZED_TEST

/* putmem/getmem with an odd byte count, to every PE, blocking and nbi. */
#define MEMN (3 * NE + 1)
static void test_mem(shmem_ctx_t ctx)
{
    static const char *const put_name[] = {"shmem_putmem", "shmem_ctx_putmem",
                                           "shmem_putmem_nbi", "shmem_ctx_putmem_nbi"};
    static const char *const get_name[] = {"shmem_getmem", "shmem_ctx_getmem",
                                           "shmem_getmem_nbi", "shmem_ctx_getmem_nbi"};
    unsigned char loc[SLOT], got[SLOT];
    long i, j;
    int op, k, q;

    for (i = 0; i < SLOT; i++)
        loc[i] = (unsigned char)VAL(me, i);
    memset(sym_dst, SENT, (size_t)4 * npes * SLOT);
    shmem_barrier_all();
    for (op = 0; op < 4; op++)
        for (k = 0; k < npes; k++) {
            int pe = (me + k) % npes;
            unsigned char *d = sym_dst + ((long)op * npes + me) * SLOT;

            switch (op) {
            case 0: shmem_putmem(d, loc, MEMN, pe); break;
            case 1: shmem_ctx_putmem(ctx, d, loc, MEMN, pe); break;
            case 2: shmem_putmem_nbi(d, loc, MEMN, pe); break;
            case 3: shmem_ctx_putmem_nbi(ctx, d, loc, MEMN, pe); break;
            }
        }
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (op = 0; op < 4; op++)
        for (q = 0; q < npes; q++)
            for (j = 0; j < SLOT; j++)
                PT_CHECK_EQ_F(put_name[op], j < MEMN ? VAL(q, j) : SENT,
                              sym_dst[((long)op * npes + q) * SLOT + j],
                              "dest[%ld] put by PE %d", j, q);

    for (i = 0; i < SLOT; i++)
        sym_src[i] = (unsigned char)VAL(me, i);
    shmem_barrier_all();
    for (op = 0; op < 4; op++)
        for (k = 0; k < npes; k++) {
            int pe = (me + k) % npes;

            memset(got, SENT, sizeof got);
            switch (op) {
            case 0: shmem_getmem(got, sym_src, MEMN, pe); break;
            case 1: shmem_ctx_getmem(ctx, got, sym_src, MEMN, pe); break;
            case 2:
                shmem_getmem_nbi(got, sym_src, MEMN, pe);
                shmem_quiet();
                break;
            case 3:
                shmem_ctx_getmem_nbi(ctx, got, sym_src, MEMN, pe);
                shmem_ctx_quiet(ctx);
                break;
            }
            for (j = 0; j < SLOT; j++)
                PT_CHECK_EQ_F(get_name[op], j < MEMN ? VAL(pe, j) : SENT, got[j],
                              "dest[%ld] read from PE %d", j, pe);
        }
    shmem_barrier_all();
}

/* A transfer far larger than a cache line or a network fragment: each PE
 * writes 1 MiB into its right neighbour, reads it back from there, and reads
 * its left neighbour's block. */
#define BIG (1L << 20)
static unsigned char big_val(int pe, long i)
{
    return (unsigned char)((i * 7 + pe) ^ (i >> 11));
}

static void check_big(const char *routine, const unsigned char *buf, int from)
{
    long i;

    for (i = 0; i < BIG; i++)
        if (buf[i] != big_val(from, i)) {
            PT_CHECK_EQ_F(routine, big_val(from, i), buf[i],
                          "byte %ld of PE %d's 1 MiB block (the first wrong one)", i, from);
            return;
        }
}

static void test_big(void)
{
    unsigned char *area = shmem_malloc(BIG); /* written by the left neighbour */
    unsigned char *mine = malloc(BIG), *back = malloc(BIG);
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long i;

    PT_CHECK("shmem_malloc", area != NULL, "a 1 MiB block");
    if (area == NULL || mine == NULL || back == NULL)
        return;
    for (i = 0; i < BIG; i++)
        mine[i] = big_val(me, i);
    shmem_putmem(area, mine, BIG, right);
    shmem_barrier_all();
    check_big("shmem_putmem", area, left);
    shmem_getmem(back, area, BIG, right);
    check_big("shmem_getmem", back, me);
    shmem_getmem_nbi(back, area, BIG, left);
    shmem_quiet();
    check_big("shmem_getmem_nbi", back, (left + npes - 1) % npes);
    shmem_barrier_all();
    free(mine);
    free(back);
    shmem_free(area);
}

int main(void)
{
    shmem_ctx_t ctx;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    sym_dst = shmem_malloc((size_t)N_TYPED_OPS * npes * SLOT * 16);
    sym_src = shmem_malloc((size_t)SLOT * 16);
    if (sym_dst == NULL || sym_src == NULL) {
        PT_CHECK("shmem_malloc", 0, "the test buffers");
        return pt_finish();
    }
    ctx = pt_ctx_create();

#define RUN(T, N) test_##N(ctx);
    GSHMEM_RMA_TYPES(RUN)
#undef RUN
#define RUN(BITS, BYTES) test_size##BITS(ctx);
    GSHMEM_SIZES(RUN)
#undef RUN
    test_mem(ctx);
    test_mem(SHMEM_CTX_DEFAULT);
    test_big();

    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(sym_src);
    shmem_free(sym_dst);
    return pt_finish();
}
