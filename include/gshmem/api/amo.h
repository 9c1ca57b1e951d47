/*
 * gshmem/api/amo.h - atomic memory operations, blocking and nonblocking,
 * each with its shmem_ctx_ twin, and the deprecated pre-1.4 names.  Rows of
 * gshmem/api.h (no include guard).
 */

/* Extended AMO types: fetch, set, swap. */
#define GSHMEM_AMO_EXT_DECLS(T, N)                                             \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_fetch, shmem_ctx_##N##_atomic_fetch, \
                    (GSHMEM_PARAMS_LOAD(T)))                                   \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_set, shmem_ctx_##N##_atomic_set,  \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_swap, shmem_ctx_##N##_atomic_swap,   \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_fetch_nbi,                        \
                    shmem_ctx_##N##_atomic_fetch_nbi,                          \
                    (GSHMEM_PARAMS_LOAD_NBI(T)))                               \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_swap_nbi,                         \
                    shmem_ctx_##N##_atomic_swap_nbi,                           \
                    (GSHMEM_PARAMS_STORE_NBI(T)))
GSHMEM_AMO_EXT_TYPES(GSHMEM_AMO_EXT_DECLS)
#undef GSHMEM_AMO_EXT_DECLS

/* Standard AMO types: compare_swap, fetch_inc, inc, fetch_add, add. */
#define GSHMEM_AMO_STD_DECLS(T, N)                                             \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_compare_swap,                        \
                    shmem_ctx_##N##_atomic_compare_swap,                       \
                    (GSHMEM_PARAMS_CSWAP(T)))                                  \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_fetch_inc,                           \
                    shmem_ctx_##N##_atomic_fetch_inc, (GSHMEM_PARAMS_INC(T)))  \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_inc, shmem_ctx_##N##_atomic_inc,  \
                    (GSHMEM_PARAMS_INC(T)))                                    \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_fetch_add,                           \
                    shmem_ctx_##N##_atomic_fetch_add,                          \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_add, shmem_ctx_##N##_atomic_add,  \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_compare_swap_nbi,                 \
                    shmem_ctx_##N##_atomic_compare_swap_nbi,                   \
                    (GSHMEM_PARAMS_CSWAP_NBI(T)))                              \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_fetch_inc_nbi,                    \
                    shmem_ctx_##N##_atomic_fetch_inc_nbi,                      \
                    (GSHMEM_PARAMS_INC_NBI(T)))                                \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_fetch_add_nbi,                    \
                    shmem_ctx_##N##_atomic_fetch_add_nbi,                      \
                    (GSHMEM_PARAMS_STORE_NBI(T)))
GSHMEM_AMO_STD_TYPES(GSHMEM_AMO_STD_DECLS)
#undef GSHMEM_AMO_STD_DECLS

/* Bitwise AMO types: and, or, xor and their fetching forms. */
#define GSHMEM_AMO_BIT_DECLS(T, N)                                             \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_fetch_and,                           \
                    shmem_ctx_##N##_atomic_fetch_and,                          \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_and, shmem_ctx_##N##_atomic_and,  \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_fetch_or,                            \
                    shmem_ctx_##N##_atomic_fetch_or, (GSHMEM_PARAMS_STORE(T))) \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_or, shmem_ctx_##N##_atomic_or,    \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(T, shmem_##N##_atomic_fetch_xor,                           \
                    shmem_ctx_##N##_atomic_fetch_xor,                          \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_xor, shmem_ctx_##N##_atomic_xor,  \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_fetch_and_nbi,                    \
                    shmem_ctx_##N##_atomic_fetch_and_nbi,                      \
                    (GSHMEM_PARAMS_STORE_NBI(T)))                              \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_fetch_or_nbi,                     \
                    shmem_ctx_##N##_atomic_fetch_or_nbi,                       \
                    (GSHMEM_PARAMS_STORE_NBI(T)))                              \
    GSHMEM_DECL_CTX(void, shmem_##N##_atomic_fetch_xor_nbi,                    \
                    shmem_ctx_##N##_atomic_fetch_xor_nbi,                      \
                    (GSHMEM_PARAMS_STORE_NBI(T)))
GSHMEM_AMO_BIT_TYPES(GSHMEM_AMO_BIT_DECLS)
#undef GSHMEM_AMO_BIT_DECLS

/* Deprecated names (no context forms). */
#define GSHMEM_AMO_DEPR_EXT_DECLS(T, N)                                        \
    GSHMEM_DECL(T, shmem_##N##_fetch, (GSHMEM_PARAMS_LOAD(T)))                 \
    GSHMEM_DECL(void, shmem_##N##_set, (GSHMEM_PARAMS_STORE(T)))               \
    GSHMEM_DECL(T, shmem_##N##_swap, (GSHMEM_PARAMS_STORE(T)))
GSHMEM_AMO_DEPR_EXT_TYPES(GSHMEM_AMO_DEPR_EXT_DECLS)
#undef GSHMEM_AMO_DEPR_EXT_DECLS

#define GSHMEM_AMO_DEPR_STD_DECLS(T, N)                                        \
    GSHMEM_DECL(T, shmem_##N##_cswap, (GSHMEM_PARAMS_CSWAP(T)))                \
    GSHMEM_DECL(T, shmem_##N##_finc, (GSHMEM_PARAMS_INC(T)))                   \
    GSHMEM_DECL(void, shmem_##N##_inc, (GSHMEM_PARAMS_INC(T)))                 \
    GSHMEM_DECL(T, shmem_##N##_fadd, (GSHMEM_PARAMS_STORE(T)))                 \
    GSHMEM_DECL(void, shmem_##N##_add, (GSHMEM_PARAMS_STORE(T)))
GSHMEM_AMO_DEPR_STD_TYPES(GSHMEM_AMO_DEPR_STD_DECLS)
#undef GSHMEM_AMO_DEPR_STD_DECLS
