/*
 * tests/device/rma.c - device RMA at thread, warp and block scope: put,
 * get, put_nbi, get_nbi, iput and iget in a typed sample covering every
 * element size, the sized forms 8 to 128, putmem/getmem (+ _nbi), and the
 * thread-only p and g.
 *
 * Every PE fills its src with its byte pattern.  One kernel per scope:
 * every unit (a lane, a warp or a block) runs every op once, on an area of
 * its own and with a length of its own: puts write that area of the right
 * neighbour's dst, gets read the left neighbour's src into this PE's dst.
 * After gshmem_quiet and a barrier each PE's dst holds the left
 * neighbour's pattern wherever an op wrote and DT_SENT everywhere else
 * (stride gaps, area tails); the host checks every byte.
 */
#include "dev_test.h"

/* The typed sample: every element size, signed, unsigned and floating,
 * and bfloat16 and half (their patterns include NaNs: moved unchanged). */
#define RMA_TYPES(X)                                                                           \
    X(char, char)                                                                              \
    X(short, short)                                                                            \
    X(int, int)                                                                                \
    X(long, long)                                                                              \
    X(long long, longlong)                                                                     \
    X(float, float)                                                                            \
    X(double, double)                                                                          \
    X(uint8_t, uint8)                                                                          \
    X(int16_t, int16)                                                                          \
    X(uint32_t, uint32)                                                                        \
    X(int64_t, int64)                                                                          \
    X(uint64_t, uint64)                                                                        \
    X(size_t, size)                                                                            \
    X(ptrdiff_t, ptrdiff)                                                                      \
    GSHMEM_FLOAT16_TYPES(X)
#define RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

#define THREAD_LANES 16 /* threads per block of the thread-scope kernel */

/* iput/iget strides in elements: dest, source. */
#define ST_D 2
#define ST_S 3

enum { K_PUT, K_GET, K_P, K_G };
enum { SC_THREAD, SC_WARP, SC_BLOCK, N_SC };

/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
enum {
#define OPS_T(T, N)                                                                            \
    OP_##N##_put, OP_##N##_get, OP_##N##_put_nbi, OP_##N##_get_nbi, OP_##N##_iput,             \
        OP_##N##_iget, OP_##N##_p, OP_##N##_g,
    RMA_TYPES(OPS_T)
#undef OPS_T
#define OPS_S(B) OP_put##B, OP_get##B, OP_put##B##_nbi, OP_get##B##_nbi, OP_iput##B, OP_iget##B,
        RMA_SIZES(OPS_S)
#undef OPS_S
            OP_putmem,
    OP_getmem,
    OP_putmem_nbi,
    OP_getmem_nbi,
    N_OPS
};
/* clang-format on */

/* Element size | kind << 8 | strided << 12. */
#define INFO(es, kind, str) ((int)(es) | (kind) << 8 | (str) << 12)
#define INFO_ES(i) ((size_t)((i)&0xff))
#define INFO_KIND(i) (((i) >> 8) & 0xf)
#define INFO_STR(i) (((i) >> 12) & 1)

DT_HD int op_info(int op)
{
    switch (op) {
#define INFO_T(T, N)                                                                           \
    case OP_##N##_put:                                                                         \
    case OP_##N##_put_nbi: return INFO(sizeof(T), K_PUT, 0);                                   \
    case OP_##N##_get:                                                                         \
    case OP_##N##_get_nbi: return INFO(sizeof(T), K_GET, 0);                                   \
    case OP_##N##_iput: return INFO(sizeof(T), K_PUT, 1);                                      \
    case OP_##N##_iget: return INFO(sizeof(T), K_GET, 1);                                      \
    case OP_##N##_p: return INFO(sizeof(T), K_P, 0);                                           \
    case OP_##N##_g: return INFO(sizeof(T), K_G, 0);
        RMA_TYPES(INFO_T)
#undef INFO_T
#define INFO_S(B)                                                                              \
    case OP_put##B:                                                                            \
    case OP_put##B##_nbi: return INFO(B / 8, K_PUT, 0);                                        \
    case OP_get##B:                                                                            \
    case OP_get##B##_nbi: return INFO(B / 8, K_GET, 0);                                        \
    case OP_iput##B: return INFO(B / 8, K_PUT, 1);                                             \
    case OP_iget##B: return INFO(B / 8, K_GET, 1);
        RMA_SIZES(INFO_S)
#undef INFO_S
    case OP_putmem:
    case OP_putmem_nbi: return INFO(1, K_PUT, 0);
    case OP_getmem:
    case OP_getmem_nbi: return INFO(1, K_GET, 0);
    }
    return INFO(1, K_PUT, 0);
}

/* Elements op moves for unit `unit` in an area of R bytes: 1 to the most
 * that fit (strided: the source stride bounds it), at most 4 for p and g
 * and 48 for iput and iget (through the proxy every element is a
 * descriptor of its own). */
DT_HD size_t op_nel(int op, unsigned unit, size_t R)
{
    int info = op_info(op);
    size_t es = INFO_ES(info), max;

    max = INFO_STR(info) ? (R / es - 1) / ST_S + 1 : R / es;
    if (INFO_STR(info))
        max = max < 48 ? max : 48;
    if (INFO_KIND(info) == K_P || INFO_KIND(info) == K_G)
        max = max < 4 ? max : 4;
    return 1 + ((size_t)unit * 7 + (size_t)op * 13) % max;
}

#define SCOPED(sc, f, args)                                                                    \
    do {                                                                                       \
        if ((sc) == SC_THREAD)                                                                 \
            gshmem_##f args;                                                                   \
        else if ((sc) == SC_WARP)                                                              \
            gshmemx_##f##_warp args;                                                           \
        else                                                                                   \
            gshmemx_##f##_block args;                                                          \
    } while (0)

/* One function per op (kept out of line under nvcc: see DT_NOINL). */
#define FN_T(T, N)                                                                             \
    DT_NOINL void do_##N##_put(int sc, char *d, const char *s, size_t nel, int pe)             \
    {                                                                                          \
        SCOPED(sc, N##_put, ((T *)d, (const T *)s, nel, pe));                                  \
    }                                                                                          \
    DT_NOINL void do_##N##_get(int sc, char *d, const char *s, size_t nel, int pe)             \
    {                                                                                          \
        SCOPED(sc, N##_get, ((T *)d, (const T *)s, nel, pe));                                  \
    }                                                                                          \
    DT_NOINL void do_##N##_put_nbi(int sc, char *d, const char *s, size_t nel, int pe)         \
    {                                                                                          \
        SCOPED(sc, N##_put_nbi, ((T *)d, (const T *)s, nel, pe));                              \
    }                                                                                          \
    DT_NOINL void do_##N##_get_nbi(int sc, char *d, const char *s, size_t nel, int pe)         \
    {                                                                                          \
        SCOPED(sc, N##_get_nbi, ((T *)d, (const T *)s, nel, pe));                              \
    }                                                                                          \
    DT_NOINL void do_##N##_iput(int sc, char *d, const char *s, size_t nel, int pe)            \
    {                                                                                          \
        SCOPED(sc, N##_iput, ((T *)d, (const T *)s, ST_D, ST_S, nel, pe));                     \
    }                                                                                          \
    DT_NOINL void do_##N##_iget(int sc, char *d, const char *s, size_t nel, int pe)            \
    {                                                                                          \
        SCOPED(sc, N##_iget, ((T *)d, (const T *)s, ST_D, ST_S, nel, pe));                     \
    }                                                                                          \
    DT_NOINL void do_##N##_p(int sc, char *d, const char *s, size_t nel, int pe)               \
    {                                                                                          \
        size_t j;                                                                              \
        for (j = 0; j < nel; j++)                                                              \
            gshmem_##N##_p((T *)d + j, ((const T *)s)[j], pe);                                 \
    }                                                                                          \
    DT_NOINL void do_##N##_g(int sc, char *d, const char *s, size_t nel, int pe)               \
    {                                                                                          \
        size_t j;                                                                              \
        for (j = 0; j < nel; j++)                                                              \
            ((T *)d)[j] = gshmem_##N##_g((const T *)s + j, pe);                                \
    }
RMA_TYPES(FN_T)
#undef FN_T

#define FN_S(B)                                                                                \
    DT_NOINL void do_put##B(int sc, char *d, const char *s, size_t nel, int pe)                \
    {                                                                                          \
        SCOPED(sc, put##B, (d, s, nel, pe));                                                   \
    }                                                                                          \
    DT_NOINL void do_get##B(int sc, char *d, const char *s, size_t nel, int pe)                \
    {                                                                                          \
        SCOPED(sc, get##B, (d, s, nel, pe));                                                   \
    }                                                                                          \
    DT_NOINL void do_put##B##_nbi(int sc, char *d, const char *s, size_t nel, int pe)          \
    {                                                                                          \
        SCOPED(sc, put##B##_nbi, (d, s, nel, pe));                                             \
    }                                                                                          \
    DT_NOINL void do_get##B##_nbi(int sc, char *d, const char *s, size_t nel, int pe)          \
    {                                                                                          \
        SCOPED(sc, get##B##_nbi, (d, s, nel, pe));                                             \
    }                                                                                          \
    DT_NOINL void do_iput##B(int sc, char *d, const char *s, size_t nel, int pe)               \
    {                                                                                          \
        SCOPED(sc, iput##B, (d, s, ST_D, ST_S, nel, pe));                                      \
    }                                                                                          \
    DT_NOINL void do_iget##B(int sc, char *d, const char *s, size_t nel, int pe)               \
    {                                                                                          \
        SCOPED(sc, iget##B, (d, s, ST_D, ST_S, nel, pe));                                      \
    }
RMA_SIZES(FN_S)
#undef FN_S

#define FN_M(STEM)                                                                             \
    DT_NOINL void do_##STEM(int sc, char *d, const char *s, size_t nel, int pe)                \
    {                                                                                          \
        SCOPED(sc, STEM, (d, s, nel, pe));                                                     \
    }
FN_M(putmem)
FN_M(getmem)
FN_M(putmem_nbi)
FN_M(getmem_nbi)
#undef FN_M

DT_FN void rma_do(int op, int sc, char *d, const char *s, size_t nel, int pe)
{
    switch (op) {
#define CASES_T(T, N)                                                                          \
    case OP_##N##_put: do_##N##_put(sc, d, s, nel, pe); break;                                 \
    case OP_##N##_get: do_##N##_get(sc, d, s, nel, pe); break;                                 \
    case OP_##N##_put_nbi: do_##N##_put_nbi(sc, d, s, nel, pe); break;                         \
    case OP_##N##_get_nbi: do_##N##_get_nbi(sc, d, s, nel, pe); break;                         \
    case OP_##N##_iput: do_##N##_iput(sc, d, s, nel, pe); break;                               \
    case OP_##N##_iget: do_##N##_iget(sc, d, s, nel, pe); break;                               \
    case OP_##N##_p: do_##N##_p(sc, d, s, nel, pe); break;                                     \
    case OP_##N##_g: do_##N##_g(sc, d, s, nel, pe); break;
        RMA_TYPES(CASES_T)
#undef CASES_T
#define CASES_S(B)                                                                             \
    case OP_put##B: do_put##B(sc, d, s, nel, pe); break;                                       \
    case OP_get##B: do_get##B(sc, d, s, nel, pe); break;                                       \
    case OP_put##B##_nbi: do_put##B##_nbi(sc, d, s, nel, pe); break;                           \
    case OP_get##B##_nbi: do_get##B##_nbi(sc, d, s, nel, pe); break;                           \
    case OP_iput##B: do_iput##B(sc, d, s, nel, pe); break;                                     \
    case OP_iget##B: do_iget##B(sc, d, s, nel, pe); break;
        RMA_SIZES(CASES_S)
#undef CASES_S
    case OP_putmem: do_putmem(sc, d, s, nel, pe); break;
    case OP_getmem: do_getmem(sc, d, s, nel, pe); break;
    case OP_putmem_nbi: do_putmem_nbi(sc, d, s, nel, pe); break;
    case OP_getmem_nbi: do_getmem_nbi(sc, d, s, nel, pe); break;
    }
}

typedef struct rma_args {
    uint64_t *fails;
    char *src, *dst; /* [N_OPS][units][R] bytes each */
    int scope;
    unsigned units;  /* units per PE */
    unsigned long R; /* bytes per (op, unit) area */
    int left, right;
} rma_args_t;

DT_FN unsigned unit_of(int sc)
{
    if (sc == SC_THREAD)
        return dt_lane();
    if (sc == SC_WARP)
        return gshmemx_block_id() * dt_warps() + dt_warp_id();
    return gshmemx_block_id();
}

GSHMEM_KERNEL(rma_kernel, rma_args_t, a)
{
    unsigned unit = unit_of(a.scope);
    int op;

    for (op = 0; op < N_OPS; op++) {
        int kind = INFO_KIND(op_info(op));
        size_t off = ((size_t)op * a.units + unit) * a.R;

        if (a.scope != SC_THREAD && (kind == K_P || kind == K_G))
            continue; /* p and g have no warp or block forms */
        rma_do(op, a.scope, a.dst + off, a.src + off, op_nel(op, unit, a.R),
               kind == K_PUT || kind == K_P ? a.right : a.left);
    }
    gshmem_quiet();
}

/* Host names of the ops, for the failure lines. */
static const char *const op_name[N_OPS] = {
#define NAME_T(T, N)                                                                           \
#N "_put", #N "_get", #N "_put_nbi", #N "_get_nbi", #N "_iput", #N "_iget", #N "_p",       \
        #N "_g",
    RMA_TYPES(NAME_T)
#undef NAME_T
#define NAME_S(B) "put" #B, "get" #B, "put" #B "_nbi", "get" #B "_nbi", "iput" #B, "iget" #B,
        RMA_SIZES(NAME_S)
#undef NAME_S
            "putmem",
    "getmem", "putmem_nbi", "getmem_nbi"};

static const char *const scope_name[N_SC] = {"thread", "warp", "block"};

/* The offset in the source area that lands at offset o of the destination
 * area, or -1 where the op must not write. */
static long src_of(int info, size_t nel, size_t o)
{
    size_t es = INFO_ES(info), e = o / es, b = o % es;

    if (!INFO_STR(info))
        return e < nel ? (long)o : -1;
    return (e % ST_D == 0 && e / ST_D < nel) ? (long)((e / ST_D) * ST_S * es + b) : -1;
}

static void check(int sc, const unsigned char *h, unsigned units, size_t R, int left)
{
    int op;
    unsigned unit;

    for (op = 0; op < N_OPS; op++)
        for (unit = 0; unit < units; unit++) {
            int info = op_info(op), kind = INFO_KIND(info);
            int skip = sc != SC_THREAD && (kind == K_P || kind == K_G);
            size_t nel = op_nel(op, unit, R), base = ((size_t)op * units + unit) * R, o;
            size_t bad = 0, first = 0;
            unsigned char fe = 0, fa = 0;
            char routine[64];

            for (o = 0; o < R; o++) {
                long s = skip ? -1 : src_of(info, nel, o);
                unsigned char e = s < 0 ? (unsigned char)DT_SENT
                                        : dt_pat(left, base + (size_t)s);

                if (h[base + o] != e && bad++ == 0)
                    first = o, fe = e, fa = h[base + o];
            }
            if (bad == 0)
                continue;
            snprintf(routine, sizeof routine, "%s%s%s%s",
                     sc == SC_THREAD ? "gshmem_" : "gshmemx_", op_name[op],
                     sc == SC_THREAD ? "" : "_", sc == SC_THREAD ? "" : scope_name[sc]);
            PT_CHECK_EQ_F(routine, fe, fa,
                          "%s unit %u, %zu elements from/to PE %d: %zu of %zu bytes wrong, "
                          "the first at byte %zu",
                          scope_name[sc], unit, nel, left, bad, R, first);
        }
}

int main(void)
{
    static const unsigned long R[N_SC] = {256, 2048, 8192};
    unsigned threads, units[N_SC];
    size_t bytes = 0;
    rma_args_t a;
    int sc;

    dt_start();
    threads = dt_threads();
    /* Thread scope: 2 x 16 lanes (every blocking op through the proxy is a
     * quiet of the lane's channel, so lanes there mostly wait for each other). */
    units[SC_THREAD] = DT_BLOCKS * THREAD_LANES;
    units[SC_WARP] = DT_BLOCKS * ((threads + DT_WARP - 1) / DT_WARP);
    units[SC_BLOCK] = DT_BLOCKS;
    for (sc = 0; sc < N_SC; sc++)
        if ((size_t)N_OPS * units[sc] * R[sc] > bytes)
            bytes = (size_t)N_OPS * units[sc] * R[sc];

    a.fails = dt_fails;
    a.src = (char *)dt_malloc(bytes);
    a.dst = (char *)dt_malloc(bytes);
    a.left = (dt_me + dt_npes - 1) % dt_npes;
    a.right = (dt_me + 1) % dt_npes;
    dt_fill_pat(a.src, bytes, dt_me, 0);
    for (sc = 0; sc < N_SC; sc++) {
        size_t n = (size_t)N_OPS * units[sc] * R[sc];
        unsigned char *h;

        dt_fill(a.dst, DT_SENT, n);
        shmem_barrier_all();
        a.scope = sc;
        a.units = units[sc];
        a.R = R[sc];
        DT_LAUNCH(rma_kernel, DT_BLOCKS, sc == SC_THREAD ? THREAD_LANES : threads, a);
        shmem_barrier_all();
        h = (unsigned char *)dt_copy_back(a.dst, n);
        check(sc, h, units[sc], R[sc], a.left);
        free(h);
    }
    shmem_barrier_all();
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
