/*
 * tests/device/float16.c - the bfloat16 and half rows of the device
 * collectives, on the world team as a thread, a warp and a block:
 * broadcast (every root), fcollect and alltoall move the 16-bit patterns
 * unchanged (NaN patterns included), and the min, max, sum and prod
 * reductions give, bit for bit, a float reference that combines the
 * members in order and rounds to the 16-bit type after every step (what
 * NVSHMEM's arithmetic in the type itself gives; gsd/coll.h), at lengths
 * up to one past a reduction's scratch chunk.  The values are chosen so
 * that, at 3 and more PEs, rounding once at the end would differ (checked
 * too).  On host lanes, host code calls p and g of both types as well.
 * RMA and put-with-signal of these types are in rma.c and signal.c.
 */
#include "dev_test.h"

enum { C_BCAST, C_FCOLLECT, C_ALLTOALL, C_MIN, C_MAX, C_SUM, C_PROD, N_COLL };
enum { F_THREAD, F_WARP, F_BLOCK, N_FORMS };

/* One row index per type of the table's list. */
enum {
#define TY_ENUM(T, N) TY_##N,
    GSHMEM_FLOAT16_TYPES(TY_ENUM)
#undef TY_ENUM
        N_TY
};

/* Past one reduction chunk of 2-byte elements (GSD_SCRATCH_BYTES / 2 / 2). */
#define MAXNEL (GSD_SCRATCH_BYTES / 4 + 1)

static const char *const coll_name[N_COLL] = {"broadcast",  "fcollect",   "alltoall",
                                              "min_reduce", "max_reduce", "sum_reduce",
                                              "prod_reduce"};
static const char *const form_name[N_FORMS] = {"", "_warp", "_block"};
static const char *const ty_name[N_TY] = {
#define TY_NAME(T, N) #N,
    GSHMEM_FLOAT16_TYPES(TY_NAME)
#undef TY_NAME
};

typedef struct f16_args {
    uint64_t *fails;
    int ty, coll, form, root;
    unsigned long n;
    char *src, *dst;
} f16_args_t;

#define BY_FORM(form, pre, post, args)                                                         \
    ((form) == F_THREAD ? gshmem_##pre##post args                                              \
     : (form) == F_WARP ? gshmemx_##pre##post##_warp args                                      \
                        : gshmemx_##pre##post##_block args)

/* One out-of-line function per type (see DT_NOINL). */
#define CALL_FN(T, N)                                                                          \
    DT_NOINL int call_##N(const f16_args_t *a)                                                 \
    {                                                                                          \
        gshmem_team_t tm = GSHMEM_TEAM_WORLD;                                                  \
        T *d = (T *)(void *)a->dst;                                                            \
        const T *s = (const T *)(void *)a->src;                                                \
        size_t n = a->n;                                                                       \
                                                                                               \
        switch (a->coll) {                                                                     \
        case C_BCAST: return BY_FORM(a->form, N, _broadcast, (tm, d, s, n, a->root));          \
        case C_FCOLLECT: return BY_FORM(a->form, N, _fcollect, (tm, d, s, n));                 \
        case C_ALLTOALL: return BY_FORM(a->form, N, _alltoall, (tm, d, s, n));                 \
        case C_MIN: return BY_FORM(a->form, N, _min_reduce, (tm, d, s, n));                    \
        case C_MAX: return BY_FORM(a->form, N, _max_reduce, (tm, d, s, n));                    \
        case C_SUM: return BY_FORM(a->form, N, _sum_reduce, (tm, d, s, n));                    \
        case C_PROD: return BY_FORM(a->form, N, _prod_reduce, (tm, d, s, n));                  \
        }                                                                                      \
        return -1;                                                                             \
    }
GSHMEM_FLOAT16_TYPES(CALL_FN)
#undef CALL_FN

GSHMEM_KERNEL(f16_kernel, f16_args_t, a)
{
    int rc = -1;

    switch (a.ty) {
#define CASE_TY(T, N)                                                                          \
    case TY_##N: rc = call_##N(&a); break;
        GSHMEM_FLOAT16_TYPES(CASE_TY)
#undef CASE_TY
    }
    if (gshmemx_thread_id() == 0)
        DT_CHECK(a.fails, "a float16 collective", "return value (coll)", a.coll, 0, rc);
}

/* ---- host: values and the reference ------------------------------------- */

/* The float conversions of a row, by index, through the table's names. */
static float ty_to_float(int ty, uint16_t b)
{
    switch (ty) {
#define TO_F(T, N)                                                                             \
    case TY_##N: return gshmemx_##N##_to_float(gshmemx_##N##_from_bits(b));
        GSHMEM_FLOAT16_TYPES(TO_F)
#undef TO_F
    }
    return 0;
}

static uint16_t ty_round(int ty, float f)
{
    switch (ty) {
#define FROM_F(T, N)                                                                           \
    case TY_##N: return gshmemx_##N##_bits(gshmemx_float_to_##N(f));
        GSHMEM_FLOAT16_TYPES(FROM_F)
#undef FROM_F
    }
    return 0;
}

/* A 16-bit pattern for the data movers: every pattern may occur. */
static uint16_t pattern(int pe, int j, size_t i)
{
    return (uint16_t)((unsigned)pe * 40503u + (unsigned)j * 7919u + (unsigned)i * 2654435761u);
}

/* The reduction input of PE pe at i.  Element kinds by i % 6:
 *   0  small integers and halves (exact sums, signed zeros and ties)
 *   1  a value near 256 plus 1 each: 256 + 1 rounds back to 256 in
 *      bfloat16 (8-bit significand) at every step, while the exact sum of
 *      three or more does not, so rounding once at the end would differ
 *   2  the same near 2048 for half (11-bit significand)
 *   3  tiny values: half subnormals, or zero after rounding
 *   4  large values: sums and products that overflow to infinity
 *   5  arbitrary fractions */
static float rin(int pe, size_t i)
{
    int v = (int)((unsigned)(pe * 37 + (int)(i % 1009) * 11) % 23u) - 11;

    switch (i % 6) {
    case 0: return (float)v * 0.5f;
    case 1: return pe == 0 ? 256.0f : 1.0f;
    case 2: return pe == 0 ? 2048.0f : 1.0f;
    case 3: return (float)v * 3.0e-7f;
    case 4: return (float)v * 30000.0f;
    }
    return (float)v / 7.0f + 0.01f * (float)pe;
}

static uint16_t input(int ty, int pe, size_t i)
{
    return ty_round(ty, rin(pe, i));
}

/* The result at i: members in order, rounded to the type after every step;
 * min and max keep one of the two values.  *once: the sum or product
 * computed in float and rounded at the end only. */
static uint16_t reference(int ty, int coll, int npes, size_t i, uint16_t *once)
{
    uint16_t acc = input(ty, 0, i);
    float exact = ty_to_float(ty, acc);
    int j;

    for (j = 1; j < npes; j++) {
        uint16_t x = input(ty, j, i);
        float a = ty_to_float(ty, acc), v = ty_to_float(ty, x);

        switch (coll) {
        case C_MIN: acc = v < a ? x : acc; break;
        case C_MAX: acc = v > a ? x : acc; break;
        case C_SUM: acc = ty_round(ty, a + v), exact += v; break;
        case C_PROD: acc = ty_round(ty, a * v), exact *= v; break;
        }
    }
    *once = ty_round(ty, exact);
    return acc;
}

/* This PE's source: n elements (n per member for alltoall). */
static void fill(void *dev, int ty, int coll, size_t n)
{
    size_t nel = coll == C_ALLTOALL ? n * (size_t)dt_npes : n, i;
    uint16_t *h = (uint16_t *)malloc(nel * 2 + 2);

    for (i = 0; i < nel; i++)
        if (coll == C_ALLTOALL) /* block j goes to member j */
            h[i] = pattern(dt_me, (int)(i / n), i % n);
        else if (coll == C_BCAST || coll == C_FCOLLECT)
            h[i] = pattern(dt_me, 0, i);
        else
            h[i] = input(ty, dt_me, i);
    dt_to_dev(dev, h, nel * 2);
    free(h);
}

/* The expected dest element i of this PE; *twice: a sum or product whose
 * per-step rounding differs from rounding once. */
static uint16_t expected(int ty, int coll, size_t n, int root, size_t i, int *twice)
{
    uint16_t once;

    *twice = 0;
    switch (coll) {
    case C_BCAST: return pattern(root, 0, i);
    case C_FCOLLECT: return pattern((int)(i / n), 0, i % n);
    case C_ALLTOALL: return pattern((int)(i / n), dt_me, i % n);
    }
    {
        uint16_t r = reference(ty, coll, dt_npes, i, &once);

        *twice = r != once;
        return r;
    }
}

static int run(f16_args_t *a, size_t n, int root)
{
    size_t dn = a->coll == C_FCOLLECT || a->coll == C_ALLTOALL ? n * (size_t)dt_npes : n;
    size_t i, bad = 0, first = 0;
    unsigned threads = a->form == F_THREAD ? 1 : a->form == F_WARP ? DT_WARP : dt_threads();
    uint16_t *h, fe = 0, fa = 0;
    int differs = 0;
    char routine[80];

    fill(a->src, a->ty, a->coll, n);
    dt_fill(a->dst, DT_SENT, dn * 2 + 2);
    a->n = n;
    a->root = root;
    shmem_barrier_all();
    DT_LAUNCH(f16_kernel, 1, threads, *a);
    shmem_barrier_all();
    h = (uint16_t *)dt_copy_back(a->dst, dn * 2 + 2);
    for (i = 0; i < dn; i++) {
        int twice;
        uint16_t e = expected(a->ty, a->coll, n, root, i, &twice);

        differs |= twice;
        if (h[i] != e && bad++ == 0)
            first = i, fe = e, fa = h[i];
    }
    snprintf(routine, sizeof routine, "%s_%s_%s%s", a->form == F_THREAD ? "gshmem" : "gshmemx",
             ty_name[a->ty], coll_name[a->coll], form_name[a->form]);
    PT_CHECK_EQ_F(routine, fe, fa, "%zu elements, root %d: %zu wrong, the first at %zu", n,
                  root, bad, first);
    PT_CHECK_EQ_F(routine, (unsigned)(DT_SENT | DT_SENT << 8), h[dn],
                  "the element past dest (%zu elements)", n);
    free(h);
    shmem_barrier_all();
    return differs;
}

/* Host lanes: host code calls the same routines (main is thread 0 of a
 * 1 x 1 grid): a p of each type to the right neighbour and a g back from
 * it, with values that are no integers (on a GPU build these are device
 * routines only; device/README.md). */
static void host_calls(void *buf)
{
#if !defined(__CUDACC__)
    int right = (dt_me + 1) % dt_npes, left = (dt_me + dt_npes - 1) % dt_npes;
    gshmem_bfloat16_t *b = (gshmem_bfloat16_t *)buf;
    gshmem_half_t *h = (gshmem_half_t *)(b + 1);
    uint16_t got[2];

    gshmem_bfloat16_p(b, gshmemx_float_to_bfloat16(0.375f + (float)dt_me), right);
    gshmem_half_p(h, gshmemx_float_to_half(-1.0f / 3.0f - (float)dt_me), right);
    gshmem_quiet();
    shmem_barrier_all();
    dt_from_dev(got, buf, sizeof got);
    PT_CHECK_EQ("gshmem_bfloat16_p (host code)",
                (unsigned)gshmemx_bfloat16_bits(
                    gshmemx_float_to_bfloat16(0.375f + (float)left)),
                (unsigned)got[0]);
    PT_CHECK_EQ("gshmem_half_p (host code)",
                (unsigned)gshmemx_half_bits(gshmemx_float_to_half(-1.0f / 3.0f - (float)left)),
                (unsigned)got[1]);
    PT_CHECK_EQ("gshmem_half_g (host code)",
                (unsigned)gshmemx_half_bits(gshmemx_float_to_half(-1.0f / 3.0f - (float)dt_me)),
                (unsigned)gshmemx_half_bits(gshmem_half_g(h, right)));
    shmem_barrier_all();
#else
    (void)buf;
#endif
}

int main(void)
{
    static const size_t lens[] = {1, 37, MAXNEL};
    f16_args_t a;
    int ty, coll, form, root, differs = 0;
    unsigned li;

    dt_start();
    a.fails = dt_fails;
    a.src = (char *)dt_malloc((size_t)MAXNEL * 2 * (size_t)dt_npes + 2);
    a.dst = (char *)dt_malloc((size_t)MAXNEL * 2 * (size_t)dt_npes + 2);
    host_calls(a.dst);
    for (ty = 0; ty < N_TY; ty++)
        for (coll = 0; coll < N_COLL; coll++)
            for (form = 0; form < N_FORMS; form++)
                for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
                    a.ty = ty;
                    a.coll = coll;
                    a.form = form;
                    if (coll == C_BCAST) {
                        for (root = 0; root < dt_npes; root++)
                            run(&a, lens[li], root);
                    } else if (coll == C_SUM) {
                        differs |= run(&a, lens[li], 0);
                    } else {
                        run(&a, lens[li], 0);
                    }
                }
    /* The reference must be the per-step one: at 3+ PEs some sum differs
     * from rounding once (the 256 + 1 + 1 elements). */
    if (dt_npes >= 3)
        PT_CHECK_EQ_F("the test's reference", 1, differs,
                      "some sum rounded per step differs from one rounded once");
    shmem_barrier_all();
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
