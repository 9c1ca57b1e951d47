/*
 * tests/pe/reduce.c - the team reductions, every operator on every type of
 * its table (include/gshmem/typetable.h):
 *   shmem_TYPENAME_{and,or,xor}_reduce  GSHMEM_REDUCE_BIT_TYPES
 *   shmem_TYPENAME_{max,min}_reduce     GSHMEM_REDUCE_MINMAX_TYPES
 *   shmem_TYPENAME_{sum,prod}_reduce    GSHMEM_REDUCE_ARITH_TYPES
 * each on world and split teams, in and out of place, small and large
 * (reduce_test.h); each returns 0 and every member gets the member-order
 * reduction of the members' sources.  Also: an invalid team returns
 * nonzero and leaves dest alone; 2000 calls back to back, each with a new
 * source; static (data segment) arrays work.
 * Built twice: reduce (P2P) and reduce_net (GSHMEM_COLL_P2P=0).
 */
#include "reduce_test.h"

#define RT_REDUCE(OP, VAL, T, N)                                                               \
    static void reduce_##N##_##OP(shmem_team_t team, size_t n, int in_place)                   \
    {                                                                                          \
        const char *fn = "shmem_" #N "_" #OP "_reduce";                                        \
        int me = shmem_team_my_pe(team), npes = shmem_team_n_pes(team);                        \
        T *dest = rt_dest, *source = in_place ? rt_dest : rt_source;                           \
                                                                                               \
        rt_prepare_dest(n, sizeof(T));                                                         \
        for (size_t i = 0; i < n; i++)                                                         \
            source[i] = VAL(T, me, i);                                                         \
        PT_CHECK_EQ_F(fn, 0, shmem_##N##_##OP##_reduce(team, dest, source, n),                 \
                      "return value, %zu elements on team %s, %s", n, rt_team_name,            \
                      RT_PLACE(in_place));                                                     \
        for (size_t i = 0; i < n; i++) {                                                       \
            T expected = VAL(T, 0, i);                                                         \
                                                                                               \
            for (int k = 1; k < npes; k++)                                                     \
                expected = RT_##OP(T, expected, VAL(T, k, i));                                 \
            RT_CHECK_EQ(fn, expected, dest[i], "dest[%zu] of %zu on team %s, %s", i, n,        \
                        rt_team_name, RT_PLACE(in_place));                                     \
        }                                                                                      \
        rt_check_guard(fn, n, sizeof(T), in_place);                                            \
        for (size_t i = 0; !in_place && i < n; i++)                                            \
            RT_CHECK_EQ(fn, VAL(T, me, i), source[i], "source[%zu] of %zu on team %s", i, n,   \
                        rt_team_name);                                                         \
    }

#define RT_BIT(T, N)                                                                           \
    RT_REDUCE(and, RT_VAL_BITS, T, N)                                                          \
    RT_REDUCE(or, RT_VAL_BITS, T, N)                                                           \
    RT_REDUCE(xor, RT_VAL_BITS, T, N)
GSHMEM_REDUCE_BIT_TYPES(RT_BIT)
#undef RT_BIT

#define RT_MINMAX(T, N)                                                                        \
    RT_REDUCE(max, RT_VAL_SPREAD, T, N)                                                        \
    RT_REDUCE(min, RT_VAL_SPREAD, T, N)
GSHMEM_REDUCE_MINMAX_TYPES(RT_MINMAX)
#undef RT_MINMAX

#define RT_ARITH(T, N)                                                                         \
    RT_REDUCE(sum, RT_VAL_ARITH, T, N)                                                         \
    RT_REDUCE(prod, RT_VAL_ARITH, T, N)
GSHMEM_REDUCE_ARITH_TYPES(RT_ARITH)
#undef RT_ARITH

#define RT_ROW(OP, T, N) {"shmem_" #N "_" #OP, reduce_##N##_##OP, sizeof(T)},
#define RT_BIT_ROWS(T, N) RT_ROW(and, T, N) RT_ROW(or, T, N) RT_ROW(xor, T, N)
#define RT_MINMAX_ROWS(T, N) RT_ROW(max, T, N) RT_ROW(min, T, N)
#define RT_ARITH_ROWS(T, N) RT_ROW(sum, T, N) RT_ROW(prod, T, N)
/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
static const rt_case_t cases[] = {GSHMEM_REDUCE_BIT_TYPES(RT_BIT_ROWS)
                                      GSHMEM_REDUCE_MINMAX_TYPES(RT_MINMAX_ROWS)
                                          GSHMEM_REDUCE_ARITH_TYPES(RT_ARITH_ROWS)};
/* clang-format on */

static long static_source[40], static_dest[40];

static void more(void)
{
    long *dest = rt_dest, *source = rt_source;
    int npes = shmem_n_pes(), me = shmem_my_pe();

    /* SHMEM_TEAM_INVALID: nonzero, nothing written (no other PE takes part). */
    dest[0] = 7;
    source[0] = 1;
    PT_CHECK("shmem_long_sum_reduce",
             shmem_long_sum_reduce(SHMEM_TEAM_INVALID, dest, source, 1) != 0,
             "nonzero for SHMEM_TEAM_INVALID");
    PT_CHECK_EQ("shmem_long_sum_reduce", 7, dest[0]);
    PT_CHECK("shmem_long_max_reduce",
             shmem_long_max_reduce(SHMEM_TEAM_INVALID, dest, dest, 1) != 0,
             "nonzero for SHMEM_TEAM_INVALID");

    /* Back to back with a new source each time and nothing in between: a
     * member may already be in the next call while others read this one. */
    for (long it = 0; it < 2000; it++) {
        for (int i = 0; i < 3; i++)
            source[i] = it * 7 + me * 3 + i;
        PT_CHECK_EQ("shmem_long_sum_reduce", 0,
                    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, source, 3));
        for (int i = 0; i < 3; i++)
            PT_CHECK_EQ_F("shmem_long_sum_reduce",
                          npes * (it * 7 + i) + 3L * npes * (npes - 1) / 2, dest[i],
                          "dest[%d] of call %ld of 2000 back to back", i, it);
    }

    /* Global arrays are symmetric too. */
    for (int i = 0; i < 40; i++)
        static_source[i] = (long)(me + 1) * i;
    PT_CHECK_EQ("shmem_long_sum_reduce", 0,
                shmem_long_sum_reduce(SHMEM_TEAM_WORLD, static_dest, static_source, 40));
    for (int i = 0; i < 40; i++)
        PT_CHECK_EQ_F("shmem_long_sum_reduce", (long)npes * (npes + 1) / 2 * i, static_dest[i],
                      "static dest[%d]", i);
}

int main(void)
{
    return RT_MAIN(cases, more);
}
