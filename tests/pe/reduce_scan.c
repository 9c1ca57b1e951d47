/*
 * tests/pe/reduce_scan.c - the OpenSHMEM 1.6 scans on every type of the
 * team reduction arithmetic table (GSHMEM_REDUCE_ARITH_TYPES):
 *   shmem_TYPENAME_sum_inscan: member i gets source_0 + ... + source_i
 *   shmem_TYPENAME_sum_exscan: member i gets source_0 + ... + source_{i-1},
 *                              member 0 gets zeros
 * in team member order (the reversed world team checks it is not world
 * order), on world and split teams, in and out of place, small and large
 * (reduce_test.h).  An invalid team returns nonzero.
 * Built twice: reduce_scan (P2P) and reduce_scan_net (GSHMEM_COLL_P2P=0).
 */
#include "reduce_test.h"

#define RT_SCAN(OP, EXCLUSIVE, T, N)                                                           \
    static void scan_##N##_##OP(shmem_team_t team, size_t n, int in_place)                     \
    {                                                                                          \
        const char *fn = "shmem_" #N "_" #OP;                                                  \
        int me = shmem_team_my_pe(team), last = EXCLUSIVE ? me - 1 : me;                       \
        T *dest = rt_dest, *source = in_place ? rt_dest : rt_source;                           \
                                                                                               \
        rt_prepare_dest(n, sizeof(T));                                                         \
        for (size_t i = 0; i < n; i++)                                                         \
            source[i] = RT_VAL_ARITH(T, me, i);                                                \
        PT_CHECK_EQ_F(fn, 0, shmem_##N##_##OP(team, dest, source, n),                          \
                      "return value, %zu elements on team %s, %s", n, rt_team_name,            \
                      RT_PLACE(in_place));                                                     \
        for (size_t i = 0; i < n; i++) {                                                       \
            T expected = last < 0 ? (T)0 : RT_VAL_ARITH(T, 0, i);                              \
                                                                                               \
            for (int k = 1; k <= last; k++)                                                    \
                expected = RT_sum(T, expected, RT_VAL_ARITH(T, k, i));                         \
            RT_CHECK_EQ(fn, expected, dest[i], "dest[%zu] of %zu on team %s member %d, %s", i, \
                        n, rt_team_name, me, RT_PLACE(in_place));                              \
        }                                                                                      \
        rt_check_guard(fn, n, sizeof(T), in_place);                                            \
        for (size_t i = 0; !in_place && i < n; i++)                                            \
            RT_CHECK_EQ(fn, RT_VAL_ARITH(T, me, i), source[i],                                 \
                        "source[%zu] of %zu on team %s", i, n, rt_team_name);                  \
    }

#define RT_ARITH(T, N) RT_SCAN(sum_inscan, 0, T, N) RT_SCAN(sum_exscan, 1, T, N)
GSHMEM_REDUCE_ARITH_TYPES(RT_ARITH)
#undef RT_ARITH

#define RT_ROWS(T, N)                                                                          \
    {"shmem_" #N "_sum_inscan", scan_##N##_sum_inscan, sizeof(T)},                             \
        {"shmem_" #N "_sum_exscan", scan_##N##_sum_exscan, sizeof(T)},
static const rt_case_t cases[] = {GSHMEM_REDUCE_ARITH_TYPES(RT_ROWS)};

static void more(void)
{
    PT_CHECK("shmem_int_sum_inscan",
             shmem_int_sum_inscan(SHMEM_TEAM_INVALID, rt_dest, rt_source, 1) != 0,
             "nonzero for SHMEM_TEAM_INVALID");
    PT_CHECK("shmem_double_sum_exscan",
             shmem_double_sum_exscan(SHMEM_TEAM_INVALID, rt_dest, rt_source, 1) != 0,
             "nonzero for SHMEM_TEAM_INVALID");
}

int main(void)
{
    return RT_MAIN(cases, more);
}
