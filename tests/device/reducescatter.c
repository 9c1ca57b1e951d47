/*
 * tests/device/reducescatter.c - the device reduce-scatter, every operator
 * on every type of its table, in each form (thread, warp, block):
 *   gshmem_TYPENAME_{and,or,xor}_reducescatter  GSHMEM_REDUCE_BIT_TYPES
 *   gshmem_TYPENAME_{min,max,sum,prod}_reducescatter  the min/max types
 *       (GSHMEM_REDUCE_MINMAX_TYPES, less long double under nvcc)
 *   gshmemx_..._reducescatter_warp / _block
 * on the world team and on the even PEs: every (type, operator) in the
 * thread form, the warp and block forms on a type of each family and
 * width.  Source holds one block of n elements per member; member i's dest
 * must hold the member-order reduction of block i of every member's source
 * (a sequential reference computed here), and the element past dest stays
 * untouched, at 1 and 37 elements and, in the block form, past one chunk
 * of the team's scratch area (so the chunk loop runs twice).  Values keep
 * every result exact:
 * small integers, never negative for unsigned types in sums and products,
 * so nothing overflows; random bits for and/or/xor.
 */
#include "dev_test.h"

#define MAXPE 8
#define BIG_BYTES (GSD_SCRATCH_BYTES / 2) /* one chunk of a reduction */
#define BLOCK_BYTES (BIG_BYTES + 16 * 8)  /* the largest block a case uses */

enum { F_THREAD, F_WARP, F_BLOCK, N_FORMS };

typedef struct rs_args {
    uint64_t *fails;
    gshmem_team_t team;
    int tn, tme;       /* team size and this PE's index */
    int start, stride; /* member i is world PE start + i * stride */
    char *src, *dst;   /* MAXPE * BLOCK_BYTES, and BLOCK_BYTES + 16 */
    int forms;         /* 0: the thread form at 1 and 37 elements; 1: every form, and
                          the block form past a chunk too */
} rs_args_t;

DT_HD unsigned long long rs_hash(int pe, size_t i)
{
    unsigned long long x = (unsigned long long)(pe + 1) * 0x9E3779B97F4A7C15ULL ^
                           (unsigned long long)(i + 1) * 0xC2B2AE3D27D4EB4FULL;

    x ^= x >> 29;
    return x * 0xBF58476D1CE4E5B9ULL;
}

/* Member pe's source element i (all blocks in a row), per operator family:
 * random bits; in [-5, 5]; in [-3, 3] - [0, 3] for unsigned types. */
#define RS_SIGNED(T) ((T)-1 < (T)1)
#define RS_V_bits(T, pe, i) ((T)rs_hash(pe, i))
#define RS_V_spread(T, pe, i) ((T)((long long)(((size_t)(pe)*5 + (i)*3) % 11) - 5))
#define RS_V_arith(T, pe, i)                                                                   \
    (RS_SIGNED(T) ? (T)((long long)(((size_t)(pe)*3 + (i)*5) % 7) - 3)                         \
                  : (T)(((size_t)(pe)*3 + (i)*5) % 4))

#define RS_and(a, x) ((a) & (x))
#define RS_or(a, x) ((a) | (x))
#define RS_xor(a, x) ((a) ^ (x))
#define RS_min(a, x) ((x) < (a) ? (x) : (a))
#define RS_max(a, x) ((x) > (a) ? (x) : (a))
#define RS_sum(a, x) ((a) + (x))
#define RS_prod(a, x) ((a) * (x))

#define BY_FORM(form, name, args)                                                              \
    ((form) == F_THREAD ? gshmem_##name args                                                   \
     : (form) == F_WARP ? gshmemx_##name##_warp args                                           \
                        : gshmemx_##name##_block args)

/* One out-of-line function per (type, operator): every form and length,
 * checked by every lane (k of nk). */
#define RS_CASE(T, N, OP, VAL, FN, CALL)                                                       \
    DT_NOINL void FN(const rs_args_t *a, unsigned k, unsigned nk)                              \
    {                                                                                          \
        const char *fn = "gshmem_" #N "_" #OP "_reducescatter";                                \
        size_t lens[3] = {1, 37, BIG_BYTES / sizeof(T) + 5}, n, i, b;                          \
        T *s = (T *)(void *)a->src, *d = (T *)(void *)a->dst;                                  \
        int wme = a->start + a->tme * a->stride, form, li, j, rc = 0, in;                      \
                                                                                               \
        for (li = 0; li < (a->forms ? 3 : 2); li++)                                            \
            for (form = li == 2 ? F_BLOCK : F_THREAD; form < (a->forms ? N_FORMS : 1);         \
                 form++) {                                                                     \
                n = lens[li];                                                                  \
                in = form == F_BLOCK || (form == F_WARP ? dt_warp_id() == 0 : k == 0);         \
                for (b = 0; b < (size_t)a->tn; b++)                                            \
                    for (i = k; i < n; i += nk)                                                \
                        s[b * n + i] = RS_V_##VAL(T, wme, b * n + i);                          \
                for (i = k; i <= n; i += nk)                                                   \
                    d[i] = (T)7;                                                               \
                gshmemx_syncthreads();                                                         \
                if (in)                                                                        \
                    rc = CALL(form, N##_##OP##_reducescatter, (a->team, d, s, n));             \
                gshmemx_syncthreads();                                                         \
                if (in)                                                                        \
                    DT_CHECK(a->fails, fn, "return value (form)", form, 0, rc);                \
                for (i = k; i < n; i += nk) {                                                  \
                    T e = RS_V_##VAL(T, a->start, a->tme * n + i);                             \
                    for (j = 1; j < a->tn; j++)                                                \
                        e = (T)RS_##OP(e, RS_V_##VAL(T, a->start + j * a->stride,              \
                                                     a->tme * n + i));                         \
                    if (d[i] != e)                                                             \
                        DT_CHECK(a->fails, fn, "dest[form*1e7+n*1e3+i]",                       \
                                 form * 10000000L + (long)n * 1000 + (long)i, e, d[i]);        \
                }                                                                              \
                if (k == 0 && d[n] != (T)7)                                                    \
                    DT_CHECK(a->fails, fn, "the element past dest (form*1e7+n)",               \
                             form * 10000000L + (long)n, 7, d[n]);                             \
                gshmemx_syncthreads(); /* all lanes checked before any rewrites */             \
            }                                                                                  \
    }

/* The sweep's functions call the thread form only (form is always
 * F_THREAD there): one inlined reduction each keeps nvcc's time on this
 * file down.  The forms kernel's functions have all three. */
#define THREAD_ONLY(form, name, args) gshmem_##name args
#define RS_SWEEP(T, N, OP, VAL) RS_CASE(T, N, OP, VAL, rs_##N##_##OP, THREAD_ONLY)
#define RS_BIT(T, N)                                                                           \
    RS_SWEEP(T, N, and, bits) RS_SWEEP(T, N, or, bits) RS_SWEEP(T, N, xor, bits)
#define RS_ARITH(T, N)                                                                         \
    RS_SWEEP(T, N, min, spread)                                                                \
    RS_SWEEP(T, N, max, spread) RS_SWEEP(T, N, sum, arith) RS_SWEEP(T, N, prod, arith)
GSHMEM_REDUCE_BIT_TYPES(RS_BIT)
GSD_REDUCE_MINMAX_TYPES(RS_ARITH)
RS_CASE(uint8_t, uint8, xor, bits, rs_forms_uint8_xor, BY_FORM)
RS_CASE(uint64_t, uint64, and, bits, rs_forms_uint64_and, BY_FORM)
RS_CASE(int, int, sum, arith, rs_forms_int_sum, BY_FORM)
RS_CASE(short, short, min, spread, rs_forms_short_min, BY_FORM)
RS_CASE(double, double, prod, arith, rs_forms_double_prod, BY_FORM)
RS_CASE(float, float, max, spread, rs_forms_float_max, BY_FORM)
#undef RS_SWEEP
#undef THREAD_ONLY

/* Every operator on every type, in the thread form: one lane, so the
 * sweep costs no lane barriers (host lanes are threads of a busy CPU). */
GSHMEM_KERNEL(rs_sweep, rs_args_t, a)
{
#define RS_CALL_BIT(T, N)                                                                      \
    rs_##N##_and(&a, 0, 1);                                                                    \
    rs_##N##_or(&a, 0, 1);                                                                     \
    rs_##N##_xor(&a, 0, 1);
#define RS_CALL_ARITH(T, N)                                                                    \
    rs_##N##_min(&a, 0, 1);                                                                    \
    rs_##N##_max(&a, 0, 1);                                                                    \
    rs_##N##_sum(&a, 0, 1);                                                                    \
    rs_##N##_prod(&a, 0, 1);
    GSHMEM_REDUCE_BIT_TYPES(RS_CALL_BIT)
    GSD_REDUCE_MINMAX_TYPES(RS_CALL_ARITH)
#undef RS_CALL_ARITH
#undef RS_CALL_BIT
}
#undef RS_ARITH
#undef RS_BIT

/* The warp and block forms, and a block past one scratch chunk, on a
 * type of each family and width. */
GSHMEM_KERNEL(rs_forms, rs_args_t, a)
{
    unsigned k = gshmemx_thread_id(), nk = gshmemx_block_threads();

    rs_forms_uint8_xor(&a, k, nk);
    rs_forms_uint64_and(&a, k, nk);
    rs_forms_int_sum(&a, k, nk);
    rs_forms_short_min(&a, k, nk);
    rs_forms_double_prod(&a, k, nk);
    rs_forms_float_max(&a, k, nk);
}

static void run(gshmem_team_t team, int tn, int tme, int start, int stride, rs_args_t *a)
{
    a->team = team;
    a->tn = tn;
    a->tme = tme;
    a->start = start;
    a->stride = stride;
    a->forms = 0;
    DT_LAUNCH(rs_sweep, 1, 1, *a);
    a->forms = 1;
    DT_LAUNCH(rs_forms, 1, dt_threads(), *a);
}

int main(void)
{
    shmem_team_t even;
    rs_args_t a;
    int n_even;

    dt_start();
    if (dt_npes > MAXPE)
        return pt_skip("more PEs than the test's tables hold");
    a.fails = dt_fails;
    a.src = (char *)dt_malloc((size_t)MAXPE * BLOCK_BYTES);
    a.dst = (char *)dt_malloc(BLOCK_BYTES + 16);
    run(GSHMEM_TEAM_WORLD, dt_npes, dt_me, 0, 1, &a);

    n_even = (dt_npes + 1) / 2;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, n_even, NULL, 0, &even);
    if (dt_me % 2 == 0)
        run(gshmemx_team_device_id(even), n_even, dt_me / 2, 0, 2, &a);
    shmem_barrier_all();
    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
