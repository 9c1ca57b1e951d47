/* host/reduce.c - team reductions and the 1.6 scans:
 *
 *   int shmem_TYPENAME_{and,or,xor}_reduce   (team reduction bitwise types)
 *   int shmem_TYPENAME_{max,min}_reduce      (team reduction min/max types)
 *   int shmem_TYPENAME_{sum,prod}_reduce     (team reduction arithmetic types)
 *   int shmem_TYPENAME_sum_{inscan,exscan}   (the same arithmetic types)
 *
 * (team, dest, source, n): each is a combine function of its operator and
 * type (host/reduce_ops.h) handed to the engine (src/coll/coll_reduce.c), made
 * by one macro per row of include/gshmem/typetable.h. */
#include "api.h"

#include "coll/coll_reduce.h"
#include "reduce_ops.h"

/* 0 on success; nonzero, doing nothing, for an invalid team or one this PE
 * does not belong to. */
static int team_reduce(const char *fn, shmem_team_t team, gsi_reduce_kind_t kind, void *dest,
                       const void *source, size_t nelems, size_t size,
                       gsi_combine_fn_t combine)
{
    gsi_group_t g;

    gsi_check_init(fn);
    if (gsi_group_team(fn, &g, team) < 0)
        return -1;
    gsi_reduce(fn, &g, kind, dest, source, nelems, size, combine);
    return 0;
}

/* shmem_<N>_<NAME>(team, dest, source, n), combining with combine_<OP>_<N>. */
#define GSI_TEAM_REDUCE(NAME, KIND, OP, T, N)                                                \
    int pshmem_##N##_##NAME(shmem_team_t team, T *dest, const T *source, size_t n)           \
    {                                                                                        \
        return team_reduce("shmem_" #N "_" #NAME, team, KIND, dest, source, n, sizeof(T),    \
                           combine_##OP##_##N);                                              \
    }                                                                                        \
    GSI_ALIAS(shmem_##N##_##NAME)

#define GSI_REDUCE_BIT(T, N)                                                                 \
    GSI_COMBINE(and, T, N)                                                                   \
    GSI_COMBINE(or, T, N)                                                                    \
    GSI_COMBINE(xor, T, N)                                                                   \
    GSI_TEAM_REDUCE(and_reduce, GSI_REDUCE_ALL, and, T, N)                                   \
    GSI_TEAM_REDUCE(or_reduce, GSI_REDUCE_ALL, or, T, N)                                     \
    GSI_TEAM_REDUCE(xor_reduce, GSI_REDUCE_ALL, xor, T, N)
GSHMEM_REDUCE_BIT_TYPES(GSI_REDUCE_BIT)
#undef GSI_REDUCE_BIT

#define GSI_REDUCE_MINMAX(T, N)                                                              \
    GSI_COMBINE(max, T, N)                                                                   \
    GSI_COMBINE(min, T, N)                                                                   \
    GSI_TEAM_REDUCE(max_reduce, GSI_REDUCE_ALL, max, T, N)                                   \
    GSI_TEAM_REDUCE(min_reduce, GSI_REDUCE_ALL, min, T, N)
GSHMEM_REDUCE_MINMAX_TYPES(GSI_REDUCE_MINMAX)
#undef GSI_REDUCE_MINMAX

#define GSI_REDUCE_ARITH(T, N)                                                               \
    GSI_COMBINE(sum, T, N)                                                                   \
    GSI_COMBINE(prod, T, N)                                                                  \
    GSI_TEAM_REDUCE(sum_reduce, GSI_REDUCE_ALL, sum, T, N)                                   \
    GSI_TEAM_REDUCE(prod_reduce, GSI_REDUCE_ALL, prod, T, N)                                 \
    GSI_TEAM_REDUCE(sum_inscan, GSI_SCAN_INCL, sum, T, N)                                    \
    GSI_TEAM_REDUCE(sum_exscan, GSI_SCAN_EXCL, sum, T, N)
GSHMEM_REDUCE_ARITH_TYPES(GSI_REDUCE_ARITH)
#undef GSI_REDUCE_ARITH
