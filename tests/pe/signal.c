/*
 * tests/pe/signal.c - put-with-signal (TYPENAME, SIZE and mem forms,
 * blocking and nbi, with and without a context), shmem_signal_add/set
 * (+ ctx), shmem_signal_fetch and shmem_signal_wait_until.
 *
 * The receiver never uses a barrier to learn that data arrived: it waits
 * for the signal and then checks the data, which put-with-signal promises
 * is complete once the signal shows.  Two patterns per routine:
 * SHMEM_SIGNAL_ADD from every PE into one word (the receiver waits for N),
 * and SHMEM_SIGNAL_SET from the left neighbour (waits for left + 1).
 */
#include "pe_test.h"
#include <gshmem/typetable.h>

#define NE 8
#define VAL(pe, i) (((pe)*37 + (i)*5 + 1) % 127)
#define NR 4 /* routines per form: blocking, ctx, nbi, ctx nbi */

static int me, npes, left, right;
static unsigned char *sym_data; /* [NR][npes + 1] blocks of NE elements */
static uint64_t *sym_sig;       /* [2 * NR + 64] */

static void reset(size_t data_bytes)
{
    memset(sym_data, 0, data_bytes);
    memset(sym_sig, 0, (2 * NR + 64) * sizeof(uint64_t));
    shmem_barrier_all();
}

/* Wait for the two signals of routine r and return what they read. */
static void wait_both(const char *routine, int r)
{
    uint64_t v;

    v = shmem_signal_wait_until(&sym_sig[2 * r], SHMEM_CMP_EQ, (uint64_t)npes);
    PT_CHECK_EQ_F(routine, npes, v, "shmem_signal_wait_until on the ADD signal");
    v = shmem_signal_wait_until(&sym_sig[2 * r + 1], SHMEM_CMP_EQ, (uint64_t)(left + 1));
    PT_CHECK_EQ_F(routine, left + 1, v, "shmem_signal_wait_until on the SET signal");
    PT_CHECK_EQ_F(routine, left + 1, shmem_signal_fetch(&sym_sig[2 * r + 1]),
                  "shmem_signal_fetch of the SET signal");
}

#define TYPED_TEST(T, N)                                                                       \
    static void test_##N(shmem_ctx_t ctx)                                                      \
    {                                                                                          \
        static const char *const name[] = {"shmem_" #N "_put_signal",                          \
                                           "shmem_ctx_" #N "_put_signal",                      \
                                           "shmem_" #N "_put_signal_nbi",                      \
                                           "shmem_ctx_" #N "_put_signal_nbi"};                 \
        T *data = (T *)sym_data, loc[NE];                                                      \
        int r, k, q, i;                                                                        \
                                                                                               \
        for (i = 0; i < NE; i++)                                                               \
            loc[i] = (T)VAL(me, i);                                                            \
        reset((size_t)NR *(npes + 1) * NE * sizeof(T));                                        \
        for (r = 0; r < NR; r++)                                                               \
            for (k = 0; k <= npes; k++) {                                                      \
                /* k < npes: ADD into slot me of every PE; k == npes: SET right */             \
                int pe = k < npes ? (me + k) % npes : right;                                   \
                T *d = data + ((long)r * (npes + 1) + (k < npes ? me : npes)) * NE;            \
                uint64_t *s = &sym_sig[2 * r + (k == npes)];                                   \
                uint64_t sv = k < npes ? 1 : (uint64_t)(me + 1);                               \
                int op = k < npes ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;                       \
                switch (r) {                                                                   \
                case 0: shmem_##N##_put_signal(d, loc, NE, s, sv, op, pe); break;              \
                case 1: shmem_ctx_##N##_put_signal(ctx, d, loc, NE, s, sv, op, pe); break;     \
                case 2: shmem_##N##_put_signal_nbi(d, loc, NE, s, sv, op, pe); break;          \
                case 3: shmem_ctx_##N##_put_signal_nbi(ctx, d, loc, NE, s, sv, op, pe); break; \
                }                                                                              \
            }                                                                                  \
        for (r = 0; r < NR; r++) {                                                             \
            wait_both(name[r], r);                                                             \
            for (q = 0; q <= npes; q++)                                                        \
                for (i = 0; i < NE; i++)                                                       \
                    PT_CHECK_EQ_F(name[r], VAL(q < npes ? q : left, i),                        \
                                  data[((long)r * (npes + 1) + q) * NE + i],                   \
                                  "dest[%d] from PE %d, read once the signal showed", i,       \
                                  q < npes ? q : left);                                        \
        }                                                                                      \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_quiet();                                                                         \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_RMA_TYPES(TYPED_TEST)
#undef TYPED_TEST

/* SIZE and mem forms: BYTES-byte elements; mem is BITS 0 with 1-byte ones. */
#define SIZED_CALLS(BITS)                                                                      \
    case 0: shmem_put##BITS##_signal(d, loc, NE, s, sv, op, pe); break;                        \
    case 1: shmem_ctx_put##BITS##_signal(ctx, d, loc, NE, s, sv, op, pe); break;               \
    case 2: shmem_put##BITS##_signal_nbi(d, loc, NE, s, sv, op, pe); break;                    \
    case 3:                                                                                    \
        shmem_ctx_put##BITS##_signal_nbi(ctx, d, loc, NE, s, sv, op, pe);                      \
        break;
#define MEM_CALLS                                                                              \
    case 0: shmem_putmem_signal(d, loc, NE, s, sv, op, pe); break;                             \
    case 1: shmem_ctx_putmem_signal(ctx, d, loc, NE, s, sv, op, pe); break;                    \
    case 2: shmem_putmem_signal_nbi(d, loc, NE, s, sv, op, pe); break;                         \
    case 3:                                                                                    \
        shmem_ctx_putmem_signal_nbi(ctx, d, loc, NE, s, sv, op, pe);                           \
        break;

#define BYTES_TEST(FN, BYTES, CALLS, N0, N1, N2, N3)                                           \
    static void FN(shmem_ctx_t ctx)                                                            \
    {                                                                                          \
        static const char *const name[] = {N0, N1, N2, N3};                                    \
        long double loc_[NE * BYTES / sizeof(long double) + 1];                                \
        unsigned char *loc = (unsigned char *)loc_;                                            \
        int r, k, q, i;                                                                        \
                                                                                               \
        for (i = 0; i < NE * BYTES; i++)                                                       \
            loc[i] = (unsigned char)VAL(me, i);                                                \
        reset((size_t)NR *(npes + 1) * NE * BYTES);                                            \
        for (r = 0; r < NR; r++)                                                               \
            for (k = 0; k <= npes; k++) {                                                      \
                int pe = k < npes ? (me + k) % npes : right;                                   \
                unsigned char *d =                                                             \
                    sym_data + ((long)r * (npes + 1) + (k < npes ? me : npes)) * NE * BYTES;   \
                uint64_t *s = &sym_sig[2 * r + (k == npes)];                                   \
                uint64_t sv = k < npes ? 1 : (uint64_t)(me + 1);                               \
                int op = k < npes ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;                       \
                switch (r) {                                                                   \
                    CALLS                                                                      \
                }                                                                              \
            }                                                                                  \
        for (r = 0; r < NR; r++) {                                                             \
            wait_both(name[r], r);                                                             \
            for (q = 0; q <= npes; q++)                                                        \
                for (i = 0; i < NE * BYTES; i++)                                               \
                    PT_CHECK_EQ_F(name[r], VAL(q < npes ? q : left, i),                        \
                                  sym_data[((long)r * (npes + 1) + q) * NE * BYTES + i],       \
                                  "byte %d from PE %d, read once the signal showed", i,        \
                                  q < npes ? q : left);                                        \
        }                                                                                      \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_quiet();                                                                         \
        shmem_barrier_all();                                                                   \
    }

#define SIZED_TEST(BITS, BYTES)                                                                \
    BYTES_TEST(test_size##BITS, BYTES, SIZED_CALLS(BITS), "shmem_put" #BITS "_signal",         \
               "shmem_ctx_put" #BITS "_signal", "shmem_put" #BITS "_signal_nbi",               \
               "shmem_ctx_put" #BITS "_signal_nbi")
GSHMEM_SIZES(SIZED_TEST)
#undef SIZED_TEST
BYTES_TEST(test_mem, 1, MEM_CALLS, "shmem_putmem_signal", "shmem_ctx_putmem_signal",
           "shmem_putmem_signal_nbi", "shmem_ctx_putmem_signal_nbi")

/* shmem_[ctx_]signal_add from every PE; shmem_[ctx_]signal_set of one word
 * per source PE; shmem_signal_fetch. */
static void test_signal_ops(shmem_ctx_t ctx)
{
    uint64_t total = (uint64_t)npes * (npes + 1) / 2, v;
    uint64_t *set1 = &sym_sig[2], *set2 = &sym_sig[2 + npes];
    int k, q;

    reset(0);
    for (k = 0; k < npes; k++) {
        int pe = (me + k) % npes;

        shmem_signal_add(&sym_sig[0], (uint64_t)(me + 1), pe);
        shmem_ctx_signal_add(ctx, &sym_sig[1], (uint64_t)(me + 1), pe);
        shmem_signal_set(&set1[me], (uint64_t)(me + 1) * 7, pe);
        shmem_ctx_signal_set(ctx, &set2[me], (uint64_t)(me + 1) * 11, pe);
    }
    shmem_ctx_quiet(ctx);
    v = shmem_signal_wait_until(&sym_sig[0], SHMEM_CMP_EQ, total);
    PT_CHECK_EQ_F("shmem_signal_add", total, v, "the word after every PE added its id + 1");
    PT_CHECK_EQ("shmem_signal_fetch", total, shmem_signal_fetch(&sym_sig[0]));
    v = shmem_signal_wait_until(&sym_sig[1], SHMEM_CMP_GE, total);
    PT_CHECK_EQ_F("shmem_ctx_signal_add", total, v, "the word after every PE added its id + 1");
    for (q = 0; q < npes; q++) {
        v = shmem_signal_wait_until(&set1[q], SHMEM_CMP_NE, 0);
        PT_CHECK_EQ_F("shmem_signal_set", (uint64_t)(q + 1) * 7, v, "word set by PE %d", q);
        v = shmem_signal_wait_until(&set2[q], SHMEM_CMP_NE, 0);
        PT_CHECK_EQ_F("shmem_ctx_signal_set", (uint64_t)(q + 1) * 11, v, "word set by PE %d",
                      q);
    }
    shmem_barrier_all();

    /* A set replaces the value, an add adds to it: 5, then +3, then set 2. */
    reset(0);
    shmem_signal_set(&sym_sig[0], 5, right);
    shmem_fence(); /* the add must land after the set */
    shmem_signal_add(&sym_sig[0], 3, right);
    shmem_quiet();
    v = shmem_signal_wait_until(&sym_sig[0], SHMEM_CMP_EQ, 8);
    PT_CHECK_EQ("shmem_signal_add", 8, v);
    shmem_barrier_all();
    shmem_signal_set(&sym_sig[0], 2, right);
    v = shmem_signal_wait_until(&sym_sig[0], SHMEM_CMP_LT, 8);
    PT_CHECK_EQ("shmem_signal_set", 2, v);
    shmem_barrier_all();
}

/* shmem_signal_wait_until with every comparison: the left neighbour sets
 * six words to 10; each is waited on with a comparison that becomes true
 * only then. */
static void test_wait_cmps(void)
{
    static const int cmp[] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                              SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};
    static const char *const cmp_name[] = {"EQ 10", "NE 0", "GT 9", "GE 10", "LT 50", "LE 10"};
    static const uint64_t initial[] = {0, 0, 0, 0, 100, 100};
    static const uint64_t value[] = {10, 0, 9, 10, 50, 10};
    int c;

    reset(0);
    for (c = 0; c < 6; c++)
        sym_sig[c] = initial[c];
    shmem_barrier_all();
    for (c = 0; c < 6; c++)
        shmem_signal_set(&sym_sig[c], 10, right);
    for (c = 0; c < 6; c++)
        PT_CHECK_EQ_F("shmem_signal_wait_until", 10,
                      shmem_signal_wait_until(&sym_sig[c], cmp[c], value[c]),
                      "value returned by the wait for SHMEM_CMP_%s", cmp_name[c]);
    shmem_quiet();
    shmem_barrier_all();
}

int main(void)
{
    shmem_ctx_t ctx;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    if (npes > 64)
        return pt_skip("more than 64 PEs");
    sym_data = shmem_malloc((size_t)NR * (npes + 1) * NE * 16);
    sym_sig = shmem_malloc((2 * NR + 64) * sizeof(uint64_t));
    PT_CHECK("shmem_malloc", sym_data != NULL && sym_sig != NULL, "the test buffers");
    if (sym_data == NULL || sym_sig == NULL)
        return pt_finish();
    ctx = pt_ctx_create();

#define RUN(T, N) test_##N(ctx);
    GSHMEM_RMA_TYPES(RUN)
#undef RUN
#define RUN(BITS, BYTES) test_size##BITS(ctx);
    GSHMEM_SIZES(RUN)
#undef RUN
    test_mem(ctx);
    test_signal_ops(ctx);
    test_wait_cmps();

    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(sym_sig);
    shmem_free(sym_data);
    return pt_finish();
}
