/*
 * gshmem/shapes.h - the parameter lists of the typed routine families.
 *
 * Many families share one parameter list (put, get, put_nbi and get_nbi all
 * take `TYPE *dest, const TYPE *source, size_t nelems, int pe`).  Each list
 * is written once here as GSHMEM_PARAMS_<SHAPE>(TYPE), with the matching
 * argument list GSHMEM_ARGS_<SHAPE>, so that the declarations
 * (gshmem/api/) and the C++ overloads that forward to them
 * (gshmem/generic_cxx.h) cannot drift apart.  The untyped SIZE and mem
 * variants use the same lists with TYPE = void.
 */
#ifndef GSHMEM_SHAPES_H
#define GSHMEM_SHAPES_H

/* Removes one pair of parentheses: a parameter list travels through macro
 * arguments as (a, b, c) so that its commas do not split it. */
#define GSHMEM_UNPAREN(...) __VA_ARGS__

/* A routine and its context-taking twin (shmem_ctx_...), which has the same
 * parameters after a leading `shmem_ctx_t ctx`.  GSHMEM_DECL is the row
 * macro of gshmem/api.h, bound by whoever includes that list. */
#define GSHMEM_DECL_CTX(ret, name, ctx_name, params)                           \
    GSHMEM_DECL(ret, name, params)                                             \
    GSHMEM_DECL(ret, ctx_name, (shmem_ctx_t ctx, GSHMEM_UNPAREN params))

/* RMA: put, get, put_nbi, get_nbi. */
#define GSHMEM_PARAMS_RMA(T) T *dest, const T *source, size_t nelems, int pe
#define GSHMEM_ARGS_RMA dest, source, nelems, pe

/* RMA: iput, iget. */
#define GSHMEM_PARAMS_STRIDED(T)                                               \
    T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
        int pe
#define GSHMEM_ARGS_STRIDED dest, source, dst, sst, nelems, pe

/* RMA: ibput, ibget. */
#define GSHMEM_PARAMS_BLOCKED(T)                                               \
    T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,      \
        size_t nblocks, int pe
#define GSHMEM_ARGS_BLOCKED dest, source, dst, sst, bsize, nblocks, pe

/* One value to one remote element: p, atomic set/swap/add/and/or/xor and
 * their fetching forms. */
#define GSHMEM_PARAMS_STORE(T) T *dest, T value, int pe
#define GSHMEM_ARGS_STORE dest, value, pe

/* One remote element read: g, atomic_fetch. */
#define GSHMEM_PARAMS_LOAD(T) const T *source, int pe
#define GSHMEM_ARGS_LOAD source, pe

/* AMO: compare_swap; fetch_inc and inc. */
#define GSHMEM_PARAMS_CSWAP(T) T *dest, T cond, T value, int pe
#define GSHMEM_ARGS_CSWAP dest, cond, value, pe
#define GSHMEM_PARAMS_INC(T) T *dest, int pe
#define GSHMEM_ARGS_INC dest, pe

/* Nonblocking fetching AMOs: the fetched value lands in *fetch. */
#define GSHMEM_PARAMS_LOAD_NBI(T) T *fetch, const T *source, int pe
#define GSHMEM_ARGS_LOAD_NBI fetch, source, pe
#define GSHMEM_PARAMS_STORE_NBI(T) T *fetch, T *dest, T value, int pe
#define GSHMEM_ARGS_STORE_NBI fetch, dest, value, pe
#define GSHMEM_PARAMS_CSWAP_NBI(T) T *fetch, T *dest, T cond, T value, int pe
#define GSHMEM_ARGS_CSWAP_NBI fetch, dest, cond, value, pe
#define GSHMEM_PARAMS_INC_NBI(T) T *fetch, T *dest, int pe
#define GSHMEM_ARGS_INC_NBI fetch, dest, pe

/* Signaling: put_signal, put_signal_nbi. */
#define GSHMEM_PARAMS_PUT_SIGNAL(T)                                            \
    T *dest, const T *source, size_t nelems, uint64_t *sig_addr,               \
        uint64_t signal, int sig_op, int pe
#define GSHMEM_ARGS_PUT_SIGNAL                                                 \
    dest, source, nelems, sig_addr, signal, sig_op, pe

/* Team collectives: alltoall, collect, fcollect, sum_inscan, sum_exscan;
 * alltoalls; broadcast; the reductions. */
#define GSHMEM_PARAMS_TEAM_COPY(T)                                             \
    shmem_team_t team, T *dest, const T *source, size_t nelems
#define GSHMEM_ARGS_TEAM_COPY team, dest, source, nelems
#define GSHMEM_PARAMS_TEAM_STRIDED(T)                                          \
    shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
        size_t nelems
#define GSHMEM_ARGS_TEAM_STRIDED team, dest, source, dst, sst, nelems
#define GSHMEM_PARAMS_TEAM_BCAST(T)                                            \
    shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root
#define GSHMEM_ARGS_TEAM_BCAST team, dest, source, nelems, PE_root
#define GSHMEM_PARAMS_TEAM_REDUCE(T)                                           \
    shmem_team_t team, T *dest, const T *source, size_t nreduce
#define GSHMEM_ARGS_TEAM_REDUCE team, dest, source, nreduce

/* Deprecated active-set reductions (shmem_TYPENAME_OP_to_all). */
#define GSHMEM_PARAMS_TO_ALL(T)                                                \
    T *dest, const T *source, int nreduce, int PE_start, int logPE_stride,     \
        int PE_size, T *pWrk, long *pSync

/* Deprecated active-set collectives (shmem_alltoall32, ...): untyped. */
#define GSHMEM_PARAMS_ASET_COPY                                                \
    void *dest, const void *source, size_t nelems, int PE_start,               \
        int logPE_stride, int PE_size, long *pSync
#define GSHMEM_PARAMS_ASET_STRIDED                                             \
    void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,              \
        size_t nelems, int PE_start, int logPE_stride, int PE_size,            \
        long *pSync
#define GSHMEM_PARAMS_ASET_BCAST                                               \
    void *dest, const void *source, size_t nelems, int PE_root, int PE_start,  \
        int logPE_stride, int PE_size, long *pSync

/* Point-to-point synchronization: one variable; a set of variables with
 * one comparison value; some of a set; and the _vector forms that take one
 * comparison value per variable. */
#define GSHMEM_PARAMS_WAIT(T) T *ivar, int cmp, T cmp_value
#define GSHMEM_ARGS_WAIT ivar, cmp, cmp_value
#define GSHMEM_PARAMS_WAIT_SET(T)                                              \
    T *ivars, size_t nelems, const int *status, int cmp, T cmp_value
#define GSHMEM_ARGS_WAIT_SET ivars, nelems, status, cmp, cmp_value
#define GSHMEM_PARAMS_WAIT_SOME(T)                                             \
    T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,      \
        T cmp_value
#define GSHMEM_ARGS_WAIT_SOME ivars, nelems, indices, status, cmp, cmp_value
#define GSHMEM_PARAMS_WAIT_SET_VECTOR(T)                                       \
    T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values
#define GSHMEM_ARGS_WAIT_SET_VECTOR ivars, nelems, status, cmp, cmp_values
#define GSHMEM_PARAMS_WAIT_SOME_VECTOR(T)                                      \
    T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,      \
        const T *cmp_values
#define GSHMEM_ARGS_WAIT_SOME_VECTOR                                           \
    ivars, nelems, indices, status, cmp, cmp_values

#endif /* GSHMEM_SHAPES_H */
