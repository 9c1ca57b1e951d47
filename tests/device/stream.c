/*
 * tests/device/stream.c - the stream-ordered host API (gsd/stream.h), every
 * family, called from the host on stream 0 with device-heap buffers:
 *   put/get[_nbi]      typed (every device RMA type), sized, mem (and one
 *                      mem transfer of 300 KB, which a GPU splits over blocks)
 *   p, g               typed
 *   iput/iget          typed, sized: strides 2 (dest) and 3 (source)
 *   put_signal[_nbi]   typed, sized, mem; SET and ADD; the receiver waits
 *                      on stream for the signal, then checks the data
 *   wait_until_all[_vector]  the point-to-point types, a status mask that
 *                      excludes an element nobody writes (ignoring it hangs)
 *   barrier / team_sync on a team, broadcast (two roots), fcollect,
 *   alltoall         typed and mem
 *   reduce, reducescatter  every operator on every type of its list,
 *                      against a sequential reference
 * Byte patterns (dt_pat) tell which PE's which bytes arrived, and a
 * sentinel the byte past the end.  On host lanes the routines run at once;
 * the program is also valid CUDA, where each queues a kernel on stream 0.
 */
#include "dev_test.h"

#define MAXPE 8
#define NEL 37                  /* elements of a typed or sized transfer */
#define BIG (300u * 1024u)      /* bytes of the large mem transfer */
#define BUF (BIG + 64u * 1024u) /* bytes of each buffer */

static char *src, *dst;
static uint64_t *sig;
static int *status_dev;
static char *cmpv; /* the vector form's compared values */
static int me, npes, right, left;

/* src <- this PE's pattern, dst <- sentinels, the signal <- 0; then every
 * PE is ready for the next case. */
static void reset(void)
{
    uint64_t zero = 0;

    dt_fill_pat(src, BUF, me, 0);
    dt_fill(dst, DT_SENT, BUF);
    dt_to_dev(sig, &zero, sizeof zero);
    shmem_barrier_all();
}

/* dst[0, n) holds PE pe's pattern from offset base, dst[n] the sentinel. */
static void check_bytes(const char *fn, const char *what, size_t n, int pe, uint64_t base)
{
    unsigned char *h = (unsigned char *)dt_copy_back(dst, n + 1);
    size_t i;

    for (i = 0; i < n && h[i] == dt_pat(pe, base + i); i++)
        ;
    if (i < n)
        PT_CHECK_EQ_F(fn, dt_pat(pe, base + i), h[i], "%s: byte %zu of %zu (PE %d's)", what, i,
                      n, pe);
    PT_CHECK_EQ_F(fn, DT_SENT, h[n], "%s: the byte past the end untouched", what);
    free(h);
}

/* ---- put, get, _nbi -------------------------------------------------------- */

#define XFER_CASE(STEM, T, SZ, GET, NBI, N)                                                    \
    do {                                                                                       \
        reset();                                                                               \
        gshmemx_##STEM##_on_stream((T *)(void *)dst, (const T *)(void *)src, (N), right, 0);   \
        if (NBI)                                                                               \
            gshmemx_quiet_on_stream(0);                                                        \
        gshmemx_barrier_all_on_stream(0);                                                      \
        check_bytes("gshmemx_" #STEM "_on_stream", "dest", (size_t)(N) * (SZ),                 \
                    (GET) ? right : left, 0);                                                  \
    } while (0)
#define XFERS(PUT, GET, T, SZ, N)                                                              \
    XFER_CASE(PUT, T, SZ, 0, 0, N);                                                            \
    XFER_CASE(PUT##_nbi, T, SZ, 0, 1, N);                                                      \
    XFER_CASE(GET, T, SZ, 1, 0, N);                                                            \
    XFER_CASE(GET##_nbi, T, SZ, 1, 1, N)

/* ---- iput, iget: element i goes from source[3i] to dest[2i] --------------- */

static void check_strided(const char *fn, size_t n, size_t size, int pe)
{
    unsigned char *h = (unsigned char *)dt_copy_back(dst, 2 * n * size);
    size_t e, b;

    for (e = 0; e < 2 * n; e++)
        for (b = 0; b < size; b++) {
            unsigned exp = e % 2 ? DT_SENT : dt_pat(pe, (e / 2 * 3) * size + b);

            if (h[e * size + b] != exp) {
                PT_CHECK_EQ_F(fn, exp, h[e * size + b], "dest element %zu byte %zu", e, b);
                b = size, e = 2 * n;
            }
        }
    free(h);
}

#define STRIDED_CASE(STEM, T, SZ, GET)                                                         \
    do {                                                                                       \
        reset();                                                                               \
        gshmemx_##STEM##_on_stream((T *)(void *)dst, (const T *)(void *)src, 2, 3, 5, right,   \
                                   0);                                                         \
        gshmemx_barrier_all_on_stream(0);                                                      \
        check_strided("gshmemx_" #STEM "_on_stream", 5, (SZ), (GET) ? right : left);           \
    } while (0)

/* ---- put with signal: SET (blocking) and ADD (nbi), then a wait on stream -- */

#define PS_CASE(STEM, T, SZ, NBI)                                                              \
    do {                                                                                       \
        reset();                                                                               \
        gshmemx_##STEM##_on_stream((T *)(void *)dst, (const T *)(void *)src, NEL, sig,         \
                                   (uint64_t)me + 1,                                           \
                                   (NBI) ? GSHMEM_SIGNAL_ADD : GSHMEM_SIGNAL_SET, right, 0);   \
        if (NBI)                                                                               \
            gshmemx_quiet_on_stream(0);                                                        \
        gshmemx_signal_wait_until_on_stream(sig, GSHMEM_CMP_EQ, (uint64_t)left + 1, 0);        \
        check_bytes("gshmemx_" #STEM "_on_stream", "dest after the signal", (size_t)NEL *(SZ), \
                    left, 0);                                                                  \
    } while (0)
#define PS_CASES(STEM, T, SZ)                                                                  \
    PS_CASE(STEM, T, SZ, 0);                                                                   \
    PS_CASE(STEM##_nbi, T, SZ, 1)

/* ---- p and g --------------------------------------------------------------- */

#define PG_CASE(T, N)                                                                          \
    do {                                                                                       \
        T v, got;                                                                              \
        reset();                                                                               \
        gshmemx_##N##_p_on_stream((T *)(void *)dst, (T)(me + 1), right, 0);                    \
        gshmemx_barrier_all_on_stream(0);                                                      \
        dt_from_dev(&v, dst, sizeof v);                                                        \
        PT_CHECK_EQ_F("gshmemx_" #N "_p_on_stream", (T)(left + 1), v, "dest from PE %d",       \
                      left);                                                                   \
        got = gshmemx_##N##_g_on_stream((const T *)(void *)dst, right, 0);                     \
        PT_CHECK_EQ_F("gshmemx_" #N "_g_on_stream", (T)(me + 1), got, "PE %d's dest", right);  \
        shmem_barrier_all(); /* every g is done before the next case rewrites dest */          \
    } while (0)

/* bfloat16 and half: the values go through the float conversions and are
 * compared by their bits (the host-lane types are structs, without == or
 * casts from int). */
#define PG_CASE_F16(T, N)                                                                      \
    do {                                                                                       \
        T v, got;                                                                              \
        reset();                                                                               \
        gshmemx_##N##_p_on_stream((T *)(void *)dst, gshmemx_float_to_##N((float)(me + 1)),     \
                                  right, 0);                                                   \
        gshmemx_barrier_all_on_stream(0);                                                      \
        dt_from_dev(&v, dst, sizeof v);                                                        \
        PT_CHECK_EQ_F("gshmemx_" #N "_p_on_stream",                                            \
                      gshmemx_##N##_bits(gshmemx_float_to_##N((float)(left + 1))),             \
                      gshmemx_##N##_bits(v), "dest from PE %d (bits)", left);                  \
        got = gshmemx_##N##_g_on_stream((const T *)(void *)dst, right, 0);                     \
        PT_CHECK_EQ_F("gshmemx_" #N "_g_on_stream",                                            \
                      gshmemx_##N##_bits(gshmemx_float_to_##N((float)(me + 1))),               \
                      gshmemx_##N##_bits(got), "PE %d's dest (bits)", right);                  \
        shmem_barrier_all();                                                                   \
    } while (0)

/* ---- wait_until_all, _vector ----------------------------------------------- */

#define WAIT_CASE(T, N)                                                                        \
    do {                                                                                       \
        T *iv = (T *)(void *)dst, h[3], cv[3];                                                 \
        const char *fn = "gshmemx_" #N "_wait_until_all_on_stream";                            \
        reset();                                                                               \
        dt_fill(dst, 0, 3 * sizeof(T));                                                        \
        shmem_barrier_all();                                                                   \
        gshmemx_##N##_p_on_stream(&iv[0], (T)(me + 1), right, 0);                              \
        gshmemx_##N##_p_on_stream(&iv[2], (T)(me + 2), right, 0);                              \
        gshmemx_##N##_wait_until_all_on_stream(iv, 3, status_dev, GSHMEM_CMP_NE, (T)0, 0);     \
        dt_from_dev(h, dst, sizeof h);                                                         \
        PT_CHECK_EQ_F(fn, (T)(left + 1), h[0], "ivars[0] after the wait");                     \
        PT_CHECK_EQ_F(fn, (T)(left + 2), h[2], "ivars[2] after the wait");                     \
        PT_CHECK_EQ_F(fn, (T)0, h[1], "ivars[1], excluded by status");                         \
        shmem_barrier_all();                                                                   \
        fn = "gshmemx_" #N "_wait_until_all_vector_on_stream";                                 \
        cv[0] = (T)(left + 3), cv[1] = (T)5, cv[2] = (T)(left + 4);                            \
        dt_to_dev(cmpv, cv, sizeof cv);                                                        \
        gshmemx_##N##_p_on_stream(&iv[2], (T)(me + 4), right, 0);                              \
        gshmemx_##N##_p_on_stream(&iv[0], (T)(me + 3), right, 0);                              \
        gshmemx_##N##_wait_until_all_vector_on_stream(iv, 3, status_dev, GSHMEM_CMP_EQ,        \
                                                      (T *)(void *)cmpv, 0);                   \
        dt_from_dev(h, dst, sizeof h);                                                         \
        PT_CHECK_EQ_F(fn, (T)(left + 3), h[0], "ivars[0] after the wait");                     \
        PT_CHECK_EQ_F(fn, (T)(left + 4), h[2], "ivars[2] after the wait");                     \
    } while (0)

/* ---- broadcast, fcollect, alltoall ----------------------------------------- */

#define COLL_CASES(BCAST, FCOLLECT, ALLTOALL, T, SZ)                                           \
    do {                                                                                       \
        size_t n = 7, nb = n * (SZ);                                                           \
        int root, j, rc;                                                                       \
        for (root = 0; root<npes; root += npes> 1 ? npes - 1 : 1) {                            \
            reset();                                                                           \
            rc = gshmemx_##BCAST##_on_stream(GSHMEM_TEAM_WORLD, (T *)(void *)dst,              \
                                             (const T *)(void *)src, n, root, 0);              \
            PT_CHECK_EQ("gshmemx_" #BCAST "_on_stream", 0, rc);                                \
            check_bytes("gshmemx_" #BCAST "_on_stream", "dest", nb, root, 0);                  \
        }                                                                                      \
        reset();                                                                               \
        rc = gshmemx_##FCOLLECT##_on_stream(GSHMEM_TEAM_WORLD, (T *)(void *)dst,               \
                                            (const T *)(void *)src, n, 0);                     \
        PT_CHECK_EQ("gshmemx_" #FCOLLECT "_on_stream", 0, rc);                                 \
        coll_check("gshmemx_" #FCOLLECT "_on_stream", nb, 0);                                  \
        reset();                                                                               \
        rc = gshmemx_##ALLTOALL##_on_stream(GSHMEM_TEAM_WORLD, (T *)(void *)dst,               \
                                            (const T *)(void *)src, n, 0);                     \
        PT_CHECK_EQ("gshmemx_" #ALLTOALL "_on_stream", 0, rc);                                 \
        coll_check("gshmemx_" #ALLTOALL "_on_stream", nb, 1);                                  \
        (void)j;                                                                               \
    } while (0)

/* dest block j of nb bytes: PE j's first block (fcollect) or its block
 * `me` (alltoall); the byte after the last block untouched. */
static void coll_check(const char *fn, size_t nb, int alltoall)
{
    size_t total = nb * (size_t)npes, i;
    unsigned char *h = (unsigned char *)dt_copy_back(dst, total + 1);

    for (i = 0; i < total; i++) {
        int j = (int)(i / nb);
        unsigned exp = dt_pat(j, (alltoall ? (uint64_t)me * nb : 0) + i % nb);

        if (h[i] != exp) {
            PT_CHECK_EQ_F(fn, exp, h[i], "dest byte %zu (block %d)", i, j);
            break;
        }
    }
    PT_CHECK_EQ_F(fn, DT_SENT, h[total], "the byte past the last block untouched");
    free(h);
}

/* ---- reduce, reducescatter -------------------------------------------------- */

/* Member pe's source element i: random bits; in [-5, 5]; small enough that
 * sums and products over 8 PEs stay exact (never negative when unsigned). */
#define ST_SIGNED(T) ((T)-1 < (T)1)
#define ST_V_bits(T, pe, i)                                                                    \
    ((T)((unsigned long long)((pe) + 1) * 0x9E3779B97F4A7C15ULL >> ((i) % 29)))
#define ST_V_spread(T, pe, i) ((T)((long long)(((size_t)(pe)*5 + (i)*3) % 11) - 5))
#define ST_V_arith(T, pe, i)                                                                   \
    (ST_SIGNED(T) ? (T)((long long)(((size_t)(pe) + (i)) % 3) - 1)                             \
                  : (T)(((size_t)(pe) + (i)) % 2 + 1))
#define ST_and(a, x) ((a) & (x))
#define ST_or(a, x) ((a) | (x))
#define ST_xor(a, x) ((a) ^ (x))
#define ST_min(a, x) ((x) < (a) ? (x) : (a))
#define ST_max(a, x) ((x) > (a) ? (x) : (a))
#define ST_sum(a, x) ((a) + (x))
#define ST_prod(a, x) ((a) * (x))

/* scatter 0: reduce n elements; 1: reduce-scatter blocks of n. */
#define RED_CASE(T, N, OP, VAL, KIND, SCATTER)                                                 \
    do {                                                                                       \
        const char *fn = "gshmemx_" #N "_" #OP "_" #KIND "_on_stream";                         \
        size_t n = 13, ns = (SCATTER) ? n * (size_t)npes : n, i;                               \
        T *h = (T *)malloc(ns * sizeof(T)), e;                                                 \
        int k, rc;                                                                             \
        reset();                                                                               \
        for (i = 0; i < ns; i++)                                                               \
            h[i] = ST_V_##VAL(T, me, i);                                                       \
        dt_to_dev(src, h, ns * sizeof(T));                                                     \
        shmem_barrier_all();                                                                   \
        rc = gshmemx_##N##_##OP##_##KIND##_on_stream(GSHMEM_TEAM_WORLD, (T *)(void *)dst,      \
                                                     (const T *)(void *)src, n, 0);            \
        PT_CHECK_EQ(fn, 0, rc);                                                                \
        dt_from_dev(h, dst, n * sizeof(T));                                                    \
        for (i = 0; i < n; i++) {                                                              \
            size_t at = ((SCATTER) ? (size_t)me * n : 0) + i;                                  \
            e = ST_V_##VAL(T, 0, at);                                                          \
            for (k = 1; k < npes; k++)                                                         \
                e = (T)ST_##OP(e, ST_V_##VAL(T, k, at));                                       \
            if (h[i] != e) {                                                                   \
                PT_CHECK_EQ_F(fn, e, h[i], "dest[%zu] of %zu", i, n);                          \
                break;                                                                         \
            }                                                                                  \
        }                                                                                      \
        free(h);                                                                               \
    } while (0)
#define RED_CASES(T, N, OP, VAL)                                                               \
    RED_CASE(T, N, OP, VAL, reduce, 0);                                                        \
    RED_CASE(T, N, OP, VAL, reducescatter, 1);

/* ---- the cases, stamped from the type table -------------------------------- */

/* The RMA rows less bfloat16 and half (those have PG_CASE_F16). */
#if defined(GSD_CUDA)
#define ST_PG_TYPES(X) GSD_RMA_NOLD_TYPES(X)
#else
#define ST_PG_TYPES(X) GSHMEM_RMA_TYPES(X)
#endif

#define RMA_TYPED(T, N)                                                                        \
    XFERS(N##_put, N##_get, T, sizeof(T), NEL);                                                \
    STRIDED_CASE(N##_iput, T, sizeof(T), 0);                                                   \
    STRIDED_CASE(N##_iget, T, sizeof(T), 1);                                                   \
    PS_CASES(N##_put_signal, T, sizeof(T));
#define PG_TYPED(T, N) PG_CASE(T, N);
#define PG_F16_TYPED(T, N) PG_CASE_F16(T, N);
#define RMA_SIZED(BITS, BYTES)                                                                 \
    XFERS(put##BITS, get##BITS, void, BYTES, NEL);                                             \
    STRIDED_CASE(iput##BITS, void, BYTES, 0);                                                  \
    STRIDED_CASE(iget##BITS, void, BYTES, 1);                                                  \
    PS_CASES(put##BITS##_signal, void, BYTES);
#define WAIT_TYPED(T, N) WAIT_CASE(T, N);
#define COLL_TYPED(T, N) COLL_CASES(N##_broadcast, N##_fcollect, N##_alltoall, T, sizeof(T));
#define RED_BIT(T, N)                                                                          \
    RED_CASES(T, N, and, bits) RED_CASES(T, N, or, bits) RED_CASES(T, N, xor, bits)
#define RED_ARITH(T, N)                                                                        \
    RED_CASES(T, N, min, spread)                                                               \
    RED_CASES(T, N, max, spread) RED_CASES(T, N, sum, arith) RED_CASES(T, N, prod, arith)

static void point_to_point(void)
{
    GSD_RMA_TYPES(RMA_TYPED)
    ST_PG_TYPES(PG_TYPED)
    GSHMEM_FLOAT16_TYPES(PG_F16_TYPED)
    GSHMEM_SIZES(RMA_SIZED)
    XFERS(putmem, getmem, void, 1, NEL);
    XFERS(putmem, getmem, void, 1, BIG);
    PS_CASES(putmem_signal, void, 1);
    GSHMEM_P2P_TYPES(WAIT_TYPED)
}

static void team_sync_cases(void)
{
    int v, rc;

    reset();
    gshmemx_int_p_on_stream((int *)(void *)dst, 42 + me, right, 0);
    rc = gshmemx_barrier_on_stream(GSHMEM_TEAM_WORLD, 0);
    PT_CHECK_EQ("gshmemx_barrier_on_stream", 0, rc);
    dt_from_dev(&v, dst, sizeof v);
    PT_CHECK_EQ_F("gshmemx_barrier_on_stream", 42 + left, v, "the p of PE %d before it", left);
    shmem_barrier_all();
    gshmemx_int_p_on_stream((int *)(void *)dst, 99 + me, right, 0);
    gshmemx_quiet_on_stream(0); /* team_sync completes nothing itself */
    rc = gshmemx_team_sync_on_stream(GSHMEM_TEAM_WORLD, 0);
    PT_CHECK_EQ("gshmemx_team_sync_on_stream", 0, rc);
    dt_from_dev(&v, dst, sizeof v);
    PT_CHECK_EQ_F("gshmemx_team_sync_on_stream", 99 + left, v, "the p of PE %d before it",
                  left);
    gshmemx_sync_all_on_stream(0);
}

/* bfloat16 and half on the stream: member pe's element i is (pe + i % 5) / 4
 * (or its negative), combined in member order and rounded to the 16-bit type
 * after every step (as the device reduction does, gsd/coll.h); compared by
 * bits. */
#define ST_F16_V(pe, i) ((float)((pe) + (int)((i) % 5)) / 4.0f * (((i) % 3) ? 1.0f : -1.0f))
#define ST_F16_STEP_min(a, x) ((x) < (a) ? (x) : (a))
#define ST_F16_STEP_max(a, x) ((x) > (a) ? (x) : (a))
#define ST_F16_STEP_sum(a, x) ((a) + (x))
#define ST_F16_STEP_prod(a, x) ((a) * (x))
#define RED_F16_CASE(T, N, OP, KIND, SCATTER)                                                  \
    do {                                                                                       \
        const char *fn = "gshmemx_" #N "_" #OP "_" #KIND "_on_stream";                         \
        size_t n = 13, ns = (SCATTER) ? n * (size_t)npes : n, i;                               \
        T *h = (T *)malloc(ns * sizeof(T));                                                    \
        int k, rc;                                                                             \
        reset();                                                                               \
        for (i = 0; i < ns; i++)                                                               \
            h[i] = gshmemx_float_to_##N(ST_F16_V(me, i));                                      \
        dt_to_dev(src, h, ns * sizeof(T));                                                     \
        shmem_barrier_all();                                                                   \
        rc = gshmemx_##N##_##OP##_##KIND##_on_stream(GSHMEM_TEAM_WORLD, (T *)(void *)dst,      \
                                                     (const T *)(void *)src, n, 0);            \
        PT_CHECK_EQ(fn, 0, rc);                                                                \
        dt_from_dev(h, dst, n * sizeof(T));                                                    \
        for (i = 0; i < n; i++) {                                                              \
            size_t at = ((SCATTER) ? (size_t)me * n : 0) + i;                                  \
            float e = gshmemx_##N##_to_float(gshmemx_float_to_##N(ST_F16_V(0, at)));           \
            for (k = 1; k < npes; k++) {                                                       \
                float x = gshmemx_##N##_to_float(gshmemx_float_to_##N(ST_F16_V(k, at)));       \
                e = gshmemx_##N##_to_float(gshmemx_float_to_##N(ST_F16_STEP_##OP(e, x)));      \
            }                                                                                  \
            PT_CHECK_EQ_F(fn, gshmemx_##N##_bits(gshmemx_float_to_##N(e)),                     \
                          gshmemx_##N##_bits(h[i]), "dest[%zu] (bits)", i);                    \
        }                                                                                      \
        free(h);                                                                               \
        shmem_barrier_all();                                                                   \
    } while (0);
#define RED_F16_CASES(T, N, OP)                                                                \
    RED_F16_CASE(T, N, OP, reduce, 0) RED_F16_CASE(T, N, OP, reducescatter, 1)
#define RED_F16(T, N)                                                                          \
    RED_F16_CASES(T, N, min)                                                                   \
    RED_F16_CASES(T, N, max) RED_F16_CASES(T, N, sum) RED_F16_CASES(T, N, prod)

static void collectives(void)
{
    GSD_RMA_TYPES(COLL_TYPED)
    COLL_CASES(broadcastmem, fcollectmem, alltoallmem, void, 1);
    GSHMEM_REDUCE_BIT_TYPES(RED_BIT)
    GSD_REDUCE_MINMAX_TYPES(RED_ARITH)
    GSD_REDUCE_FLOAT16_TYPES(RED_F16)
}

int main(void)
{
    int st[3] = {0, 1, 0}; /* wait on ivars 0 and 2, not 1 */

    dt_start();
    me = dt_me, npes = dt_npes;
    if (npes > MAXPE)
        return pt_skip("more PEs than the test's buffers hold");
    right = (me + 1) % npes, left = (me + npes - 1) % npes;
    src = (char *)dt_malloc((size_t)BUF);
    dst = (char *)dt_malloc((size_t)BUF);
    sig = (uint64_t *)dt_malloc(sizeof(uint64_t));
    status_dev = (int *)dt_malloc(sizeof st);
    cmpv = (char *)dt_malloc(3 * 16);
    dt_to_dev(status_dev, st, sizeof st);

    point_to_point();
    team_sync_cases();
    collectives();

    shmem_barrier_all();
    gshmem_free(cmpv);
    gshmem_free(status_dev);
    gshmem_free(sig);
    gshmem_free(dst);
    gshmem_free(src);
    return dt_finish();
}
