/*
 * gshmem/api/coll.h - collectives: team-based (current) and active-set
 * (deprecated).  Rows of gshmem/api.h (no include guard).
 */
GSHMEM_DECL(void, shmem_barrier_all, (void))
GSHMEM_DECL(void, shmem_sync_all, (void))
GSHMEM_DECL(int, shmem_team_sync, (shmem_team_t team))

/* Data movement over a team, for the standard RMA types and as mem. */
#define GSHMEM_COLL_TYPED_DECLS(T, N)                                          \
    GSHMEM_DECL(int, shmem_##N##_alltoall, (GSHMEM_PARAMS_TEAM_COPY(T)))       \
    GSHMEM_DECL(int, shmem_##N##_alltoalls, (GSHMEM_PARAMS_TEAM_STRIDED(T)))   \
    GSHMEM_DECL(int, shmem_##N##_broadcast, (GSHMEM_PARAMS_TEAM_BCAST(T)))     \
    GSHMEM_DECL(int, shmem_##N##_collect, (GSHMEM_PARAMS_TEAM_COPY(T)))        \
    GSHMEM_DECL(int, shmem_##N##_fcollect, (GSHMEM_PARAMS_TEAM_COPY(T)))
GSHMEM_RMA_TYPES(GSHMEM_COLL_TYPED_DECLS)
#undef GSHMEM_COLL_TYPED_DECLS

GSHMEM_DECL(int, shmem_alltoallmem, (GSHMEM_PARAMS_TEAM_COPY(void)))
GSHMEM_DECL(int, shmem_alltoallsmem, (GSHMEM_PARAMS_TEAM_STRIDED(void)))
GSHMEM_DECL(int, shmem_broadcastmem, (GSHMEM_PARAMS_TEAM_BCAST(void)))
GSHMEM_DECL(int, shmem_collectmem, (GSHMEM_PARAMS_TEAM_COPY(void)))
GSHMEM_DECL(int, shmem_fcollectmem, (GSHMEM_PARAMS_TEAM_COPY(void)))

/* Team reductions and scans; each operator has its own type list. */
#define GSHMEM_REDUCE_BIT_DECLS(T, N)                                          \
    GSHMEM_DECL(int, shmem_##N##_and_reduce, (GSHMEM_PARAMS_TEAM_REDUCE(T)))   \
    GSHMEM_DECL(int, shmem_##N##_or_reduce, (GSHMEM_PARAMS_TEAM_REDUCE(T)))    \
    GSHMEM_DECL(int, shmem_##N##_xor_reduce, (GSHMEM_PARAMS_TEAM_REDUCE(T)))
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_REDUCE_BIT_DECLS)
#undef GSHMEM_REDUCE_BIT_DECLS

#define GSHMEM_REDUCE_MINMAX_DECLS(T, N)                                       \
    GSHMEM_DECL(int, shmem_##N##_max_reduce, (GSHMEM_PARAMS_TEAM_REDUCE(T)))   \
    GSHMEM_DECL(int, shmem_##N##_min_reduce, (GSHMEM_PARAMS_TEAM_REDUCE(T)))
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_REDUCE_MINMAX_DECLS)
#undef GSHMEM_REDUCE_MINMAX_DECLS

#define GSHMEM_REDUCE_ARITH_DECLS(T, N)                                        \
    GSHMEM_DECL(int, shmem_##N##_sum_reduce, (GSHMEM_PARAMS_TEAM_REDUCE(T)))   \
    GSHMEM_DECL(int, shmem_##N##_prod_reduce, (GSHMEM_PARAMS_TEAM_REDUCE(T)))  \
    GSHMEM_DECL(int, shmem_##N##_sum_inscan, (GSHMEM_PARAMS_TEAM_COPY(T)))     \
    GSHMEM_DECL(int, shmem_##N##_sum_exscan, (GSHMEM_PARAMS_TEAM_COPY(T)))
GSHMEM_REDUCE_ARITH_TYPES(GSHMEM_REDUCE_ARITH_DECLS)
#undef GSHMEM_REDUCE_ARITH_DECLS

/* Deprecated active-set collectives: PE_start, logPE_stride and PE_size
 * name the set; pSync (and pWrk) are user-provided symmetric work arrays.
 * In C11 and C++, shmem_sync with one argument is the team form
 * (gshmem/generic_*.h). */
GSHMEM_DECL(void, shmem_barrier,
            (int PE_start, int logPE_stride, int PE_size, long *pSync))
GSHMEM_DECL(void, shmem_sync,
            (int PE_start, int logPE_stride, int PE_size, long *pSync))
GSHMEM_DECL(void, shmem_alltoall32, (GSHMEM_PARAMS_ASET_COPY))
GSHMEM_DECL(void, shmem_alltoall64, (GSHMEM_PARAMS_ASET_COPY))
GSHMEM_DECL(void, shmem_alltoalls32, (GSHMEM_PARAMS_ASET_STRIDED))
GSHMEM_DECL(void, shmem_alltoalls64, (GSHMEM_PARAMS_ASET_STRIDED))
GSHMEM_DECL(void, shmem_broadcast32, (GSHMEM_PARAMS_ASET_BCAST))
GSHMEM_DECL(void, shmem_broadcast64, (GSHMEM_PARAMS_ASET_BCAST))
GSHMEM_DECL(void, shmem_collect32, (GSHMEM_PARAMS_ASET_COPY))
GSHMEM_DECL(void, shmem_collect64, (GSHMEM_PARAMS_ASET_COPY))
GSHMEM_DECL(void, shmem_fcollect32, (GSHMEM_PARAMS_ASET_COPY))
GSHMEM_DECL(void, shmem_fcollect64, (GSHMEM_PARAMS_ASET_COPY))

#define GSHMEM_TO_ALL_BIT_DECLS(T, N)                                          \
    GSHMEM_DECL(void, shmem_##N##_and_to_all, (GSHMEM_PARAMS_TO_ALL(T)))       \
    GSHMEM_DECL(void, shmem_##N##_or_to_all, (GSHMEM_PARAMS_TO_ALL(T)))        \
    GSHMEM_DECL(void, shmem_##N##_xor_to_all, (GSHMEM_PARAMS_TO_ALL(T)))
GSHMEM_TOALL_BIT_TYPES(GSHMEM_TO_ALL_BIT_DECLS)
#undef GSHMEM_TO_ALL_BIT_DECLS

#define GSHMEM_TO_ALL_MINMAX_DECLS(T, N)                                       \
    GSHMEM_DECL(void, shmem_##N##_max_to_all, (GSHMEM_PARAMS_TO_ALL(T)))       \
    GSHMEM_DECL(void, shmem_##N##_min_to_all, (GSHMEM_PARAMS_TO_ALL(T)))
GSHMEM_TOALL_MINMAX_TYPES(GSHMEM_TO_ALL_MINMAX_DECLS)
#undef GSHMEM_TO_ALL_MINMAX_DECLS

#define GSHMEM_TO_ALL_ARITH_DECLS(T, N)                                        \
    GSHMEM_DECL(void, shmem_##N##_sum_to_all, (GSHMEM_PARAMS_TO_ALL(T)))       \
    GSHMEM_DECL(void, shmem_##N##_prod_to_all, (GSHMEM_PARAMS_TO_ALL(T)))
GSHMEM_TOALL_ARITH_TYPES(GSHMEM_TO_ALL_ARITH_DECLS)
#undef GSHMEM_TO_ALL_ARITH_DECLS
