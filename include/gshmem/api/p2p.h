/*
 * gshmem/api/p2p.h - point-to-point synchronization: wait_until and test
 * on one variable, on all/any/some of a set (one comparison value, or one
 * per variable: _vector), and the signal wait.  Rows of gshmem/api.h (no
 * include guard).
 */
#define GSHMEM_P2P_DECLS(T, N)                                                 \
    GSHMEM_DECL(void, shmem_##N##_wait_until, (GSHMEM_PARAMS_WAIT(T)))         \
    GSHMEM_DECL(void, shmem_##N##_wait_until_all, (GSHMEM_PARAMS_WAIT_SET(T))) \
    GSHMEM_DECL(size_t, shmem_##N##_wait_until_any,                            \
                (GSHMEM_PARAMS_WAIT_SET(T)))                                   \
    GSHMEM_DECL(size_t, shmem_##N##_wait_until_some,                           \
                (GSHMEM_PARAMS_WAIT_SOME(T)))                                  \
    GSHMEM_DECL(void, shmem_##N##_wait_until_all_vector,                       \
                (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)))                            \
    GSHMEM_DECL(size_t, shmem_##N##_wait_until_any_vector,                     \
                (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)))                            \
    GSHMEM_DECL(size_t, shmem_##N##_wait_until_some_vector,                    \
                (GSHMEM_PARAMS_WAIT_SOME_VECTOR(T)))                           \
    GSHMEM_DECL(int, shmem_##N##_test, (GSHMEM_PARAMS_WAIT(T)))                \
    GSHMEM_DECL(int, shmem_##N##_test_all, (GSHMEM_PARAMS_WAIT_SET(T)))        \
    GSHMEM_DECL(size_t, shmem_##N##_test_any, (GSHMEM_PARAMS_WAIT_SET(T)))     \
    GSHMEM_DECL(size_t, shmem_##N##_test_some, (GSHMEM_PARAMS_WAIT_SOME(T)))   \
    GSHMEM_DECL(int, shmem_##N##_test_all_vector,                              \
                (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)))                            \
    GSHMEM_DECL(size_t, shmem_##N##_test_any_vector,                           \
                (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)))                            \
    GSHMEM_DECL(size_t, shmem_##N##_test_some_vector,                          \
                (GSHMEM_PARAMS_WAIT_SOME_VECTOR(T)))
GSHMEM_P2P_TYPES(GSHMEM_P2P_DECLS)
#undef GSHMEM_P2P_DECLS

GSHMEM_DECL(uint64_t, shmem_signal_wait_until,
            (uint64_t * sig_addr, int cmp, uint64_t cmp_value))

/* Deprecated.  In C11 and C++ the name shmem_wait_until is also the
 * type-generic wait (gshmem/generic_*.h); for long * both mean the same. */
GSHMEM_DECL(void, shmem_wait_until, (long *ivar, int cmp, long cmp_value))
GSHMEM_DECL(void, shmem_wait, (long *ivar, long cmp_value))

#define GSHMEM_WAIT_DEPR_DECLS(T, N)                                           \
    GSHMEM_DECL(void, shmem_##N##_wait, (T * ivar, T cmp_value))
GSHMEM_WAIT_DEPRECATED_TYPES(GSHMEM_WAIT_DEPR_DECLS)
#undef GSHMEM_WAIT_DEPR_DECLS
