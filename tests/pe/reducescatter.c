/*
 * tests/pe/reducescatter.c - the team reduce-scatter extension, every
 * operator on every type of its table (include/gshmem/typetable.h):
 *   shmemx_TYPENAME_{and,or,xor}_reducescatter  GSHMEM_REDUCE_BIT_TYPES
 *   shmemx_TYPENAME_{max,min}_reducescatter     GSHMEM_REDUCE_MINMAX_TYPES
 *   shmemx_TYPENAME_{sum,prod}_reducescatter    GSHMEM_REDUCE_ARITH_TYPES
 * on the teams of reduce_test.h, out of place and in place (dest = this
 * member's own block of source), at 0, 1, 13 elements and past one 8 KiB
 * chunk of the engine: each returns 0 and member i's dest holds the
 * member-order reduction of block i of every member's source (a sequential
 * reference), the element past dest is untouched, an out-of-place source
 * unchanged.  An invalid team returns nonzero and writes nothing.
 * Built twice: reducescatter (P2P) and reducescatter_net (GSHMEM_COLL_P2P=0).
 */
#include "reduce_test.h"

#include <shmemx.h>

#define RS_MAX_BYTES (20 * 1024) /* a block: past two of the engine's 8 KiB chunks */

static void *rs_source, *rs_dest;

/* Member pe's source element i of block b (n elements a block). */
#define RS_VAL(VAL, T, pe, b, n, i) VAL(T, pe, (size_t)(b) * (n) + (i))

#define RS_CASE(OP, VAL, T, N)                                                                 \
    static void rs_##N##_##OP(shmem_team_t team, size_t n, int in_place)                       \
    {                                                                                          \
        const char *fn = "shmemx_" #N "_" #OP "_reducescatter";                                \
        int me = shmem_team_my_pe(team), npes = shmem_team_n_pes(team);                        \
        T *source = rs_source, *dest = in_place ? source + (size_t)me * n : (T *)rs_dest;      \
                                                                                               \
        for (size_t b = 0; b < (size_t)npes; b++)                                              \
            for (size_t i = 0; i < n; i++)                                                     \
                source[b * n + i] = RS_VAL(VAL, T, me, b, n, i);                               \
        if (!in_place)                                                                         \
            memset(dest, RT_GUARD, (n + 1) * sizeof(T));                                       \
        PT_CHECK_EQ_F(fn, 0, shmemx_##N##_##OP##_reducescatter(team, dest, source, n),         \
                      "return value, %zu elements on team %s, %s", n, rt_team_name,            \
                      RT_PLACE(in_place));                                                     \
        for (size_t i = 0; i < n; i++) {                                                       \
            T expected = RS_VAL(VAL, T, 0, me, n, i);                                          \
                                                                                               \
            for (int k = 1; k < npes; k++)                                                     \
                expected = RT_##OP(T, expected, RS_VAL(VAL, T, k, me, n, i));                  \
            RT_CHECK_EQ(fn, expected, dest[i], "dest[%zu] of %zu on team %s, %s", i, n,        \
                        rt_team_name, RT_PLACE(in_place));                                     \
        }                                                                                      \
        if (in_place) { /* the other blocks are left alone */                                  \
            for (size_t b = 0; b < (size_t)npes; b++)                                          \
                for (size_t i = 0; b != (size_t)me && i < n; i++)                              \
                    RT_CHECK_EQ(fn, RS_VAL(VAL, T, me, b, n, i), source[b * n + i],            \
                                "source block %zu [%zu] of %zu on team %s, in place", b, i, n, \
                                rt_team_name);                                                 \
            return;                                                                            \
        }                                                                                      \
        {                                                                                      \
            const unsigned char *g = (const unsigned char *)(dest + n);                        \
            size_t k;                                                                          \
            for (k = 0; k < sizeof(T) && g[k] == RT_GUARD; k++)                                \
                ;                                                                              \
            PT_CHECK(fn, k == sizeof(T), "the element past dest untouched");                   \
        }                                                                                      \
        for (size_t i = 0; i < n * (size_t)npes; i++)                                          \
            RT_CHECK_EQ(fn, RS_VAL(VAL, T, me, i / n, n, i % n), source[i],                    \
                        "source[%zu] of %zu on team %s", i, n, rt_team_name);                  \
    }

#define RS_BIT(T, N)                                                                           \
    RS_CASE(and, RT_VAL_BITS, T, N)                                                            \
    RS_CASE(or, RT_VAL_BITS, T, N)                                                             \
    RS_CASE(xor, RT_VAL_BITS, T, N)
GSHMEM_REDUCE_BIT_TYPES(RS_BIT)
#undef RS_BIT

#define RS_MINMAX(T, N)                                                                        \
    RS_CASE(max, RT_VAL_SPREAD, T, N)                                                          \
    RS_CASE(min, RT_VAL_SPREAD, T, N)
GSHMEM_REDUCE_MINMAX_TYPES(RS_MINMAX)
#undef RS_MINMAX

#define RS_ARITH(T, N)                                                                         \
    RS_CASE(sum, RT_VAL_ARITH, T, N)                                                           \
    RS_CASE(prod, RT_VAL_ARITH, T, N)
GSHMEM_REDUCE_ARITH_TYPES(RS_ARITH)
#undef RS_ARITH

#define RS_ROW(OP, T, N) {"shmemx_" #N "_" #OP, rs_##N##_##OP, sizeof(T)},
#define RS_BIT_ROWS(T, N) RS_ROW(and, T, N) RS_ROW(or, T, N) RS_ROW(xor, T, N)
#define RS_MINMAX_ROWS(T, N) RS_ROW(max, T, N) RS_ROW(min, T, N)
#define RS_ARITH_ROWS(T, N) RS_ROW(sum, T, N) RS_ROW(prod, T, N)
/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
static const rt_case_t cases[] = {GSHMEM_REDUCE_BIT_TYPES(RS_BIT_ROWS)
                                      GSHMEM_REDUCE_MINMAX_TYPES(RS_MINMAX_ROWS)
                                          GSHMEM_REDUCE_ARITH_TYPES(RS_ARITH_ROWS)};
/* clang-format on */

int main(void)
{
    rt_team_t teams[RT_MAX_TEAMS];
    int nteams, npes;
    long *dest;

    rt_environment();
    shmem_init();
    pt_setup_(__FILE__);
    npes = shmem_n_pes();
    rs_source = shmem_malloc((size_t)RS_MAX_BYTES * (size_t)npes + 64);
    rs_dest = shmem_malloc(RS_MAX_BYTES + 64);
    PT_CHECK("shmem_malloc", rs_source && rs_dest, "the arrays");
    if (!rs_source || !rs_dest)
        return pt_finish();
    nteams = rt_make_teams(teams);
    for (int t = 0; t < nteams; t++) {
        if (teams[t].team == SHMEM_TEAM_INVALID)
            continue;
        rt_team_name = teams[t].name;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            size_t sizes[] = {0, 1, 13, RS_MAX_BYTES / cases[c].size - 1};

            for (int in_place = 0; in_place < 2; in_place++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    cases[c].run(teams[t].team, sizes[s], in_place);
        }
    }

    /* SHMEM_TEAM_INVALID: nonzero, nothing written (no other PE takes part). */
    dest = rs_dest;
    dest[0] = 7;
    PT_CHECK("shmemx_long_sum_reducescatter",
             shmemx_long_sum_reducescatter(SHMEM_TEAM_INVALID, dest, (long *)rs_source, 1) != 0,
             "nonzero for SHMEM_TEAM_INVALID");
    PT_CHECK_EQ("shmemx_long_sum_reducescatter", 7, dest[0]);

    shmem_barrier_all();
    rt_destroy_teams(teams, nteams);
    shmem_free(rs_source);
    shmem_free(rs_dest);
    return pt_finish();
}
