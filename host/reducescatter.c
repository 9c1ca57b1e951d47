/* host/reducescatter.c - team reduce-scatter, a gshmem extension after
 * NVSHMEM's (OpenSHMEM 1.6 has none):
 *
 *   int shmemx_TYPENAME_{and,or,xor}_reducescatter   (team reduction bitwise types)
 *   int shmemx_TYPENAME_{max,min}_reducescatter      (team reduction min/max types)
 *   int shmemx_TYPENAME_{sum,prod}_reducescatter     (team reduction arithmetic types)
 *
 * (team, dest, source, nreduce): source holds one block of nreduce
 * elements per team member; member i's dest gets block i of every member's
 * source, combined.  The same combine functions as the reductions
 * (host/reduce_ops.h) handed to the engine (src/coll/coll_reduce.c). */
#include "api.h"

#include "coll/coll_reduce.h"
#include "reduce_ops.h"

/* 0 on success; nonzero, doing nothing, for an invalid team or one this PE
 * does not belong to (as the reductions). */
static int team_reduce_scatter(const char *fn, shmem_team_t team, void *dest,
                               const void *source, size_t nreduce, size_t size,
                               gsi_combine_fn_t combine)
{
    gsi_group_t g;

    gsi_check_init(fn);
    if (gsi_group_team(fn, &g, team) < 0)
        return -1;
    gsi_reduce_scatter(fn, &g, dest, source, nreduce, size, combine);
    return 0;
}

#define GSI_TEAM_REDUCE_SCATTER(OP, T, N)                                                    \
    GSI_COMBINE(OP, T, N)                                                                    \
    int pshmemx_##N##_##OP##_reducescatter(shmem_team_t team, T *dest, const T *source,      \
                                           size_t nreduce)                                   \
    {                                                                                        \
        return team_reduce_scatter("shmemx_" #N "_" #OP "_reducescatter", team, dest,        \
                                   source, nreduce, sizeof(T), combine_##OP##_##N);          \
    }                                                                                        \
    GSI_ALIAS(shmemx_##N##_##OP##_reducescatter)

#define GSI_RS_BIT(T, N)                                                                     \
    GSI_TEAM_REDUCE_SCATTER(and, T, N)                                                       \
    GSI_TEAM_REDUCE_SCATTER(or, T, N)                                                        \
    GSI_TEAM_REDUCE_SCATTER(xor, T, N)
GSHMEM_REDUCE_BIT_TYPES(GSI_RS_BIT)
#undef GSI_RS_BIT

#define GSI_RS_MINMAX(T, N)                                                                  \
    GSI_TEAM_REDUCE_SCATTER(max, T, N)                                                       \
    GSI_TEAM_REDUCE_SCATTER(min, T, N)
GSHMEM_REDUCE_MINMAX_TYPES(GSI_RS_MINMAX)
#undef GSI_RS_MINMAX

#define GSI_RS_ARITH(T, N)                                                                   \
    GSI_TEAM_REDUCE_SCATTER(sum, T, N)                                                       \
    GSI_TEAM_REDUCE_SCATTER(prod, T, N)
GSHMEM_REDUCE_ARITH_TYPES(GSI_RS_ARITH)
#undef GSI_RS_ARITH
#undef GSI_TEAM_REDUCE_SCATTER
