/*
 * gshmem/api/rma.h - remote memory access: put, p, iput, ibput, get, g,
 * iget, ibget, put_nbi, get_nbi, each with its shmem_ctx_ twin, in TYPENAME,
 * SIZE and mem forms.  Rows of gshmem/api.h (no include guard).
 */

/* shmem_TYPENAME_put, ... for the standard RMA types. */
#define GSHMEM_RMA_TYPED_DECLS(T, N)                                           \
    GSHMEM_DECL_CTX(void, shmem_##N##_put, shmem_ctx_##N##_put,                \
                    (GSHMEM_PARAMS_RMA(T)))                                    \
    GSHMEM_DECL_CTX(void, shmem_##N##_p, shmem_ctx_##N##_p,                    \
                    (GSHMEM_PARAMS_STORE(T)))                                  \
    GSHMEM_DECL_CTX(void, shmem_##N##_iput, shmem_ctx_##N##_iput,              \
                    (GSHMEM_PARAMS_STRIDED(T)))                                \
    GSHMEM_DECL_CTX(void, shmem_##N##_ibput, shmem_ctx_##N##_ibput,            \
                    (GSHMEM_PARAMS_BLOCKED(T)))                                \
    GSHMEM_DECL_CTX(void, shmem_##N##_get, shmem_ctx_##N##_get,                \
                    (GSHMEM_PARAMS_RMA(T)))                                    \
    GSHMEM_DECL_CTX(T, shmem_##N##_g, shmem_ctx_##N##_g,                       \
                    (GSHMEM_PARAMS_LOAD(T)))                                   \
    GSHMEM_DECL_CTX(void, shmem_##N##_iget, shmem_ctx_##N##_iget,              \
                    (GSHMEM_PARAMS_STRIDED(T)))                                \
    GSHMEM_DECL_CTX(void, shmem_##N##_ibget, shmem_ctx_##N##_ibget,            \
                    (GSHMEM_PARAMS_BLOCKED(T)))                                \
    GSHMEM_DECL_CTX(void, shmem_##N##_put_nbi, shmem_ctx_##N##_put_nbi,        \
                    (GSHMEM_PARAMS_RMA(T)))                                    \
    GSHMEM_DECL_CTX(void, shmem_##N##_get_nbi, shmem_ctx_##N##_get_nbi,        \
                    (GSHMEM_PARAMS_RMA(T)))
GSHMEM_RMA_TYPES(GSHMEM_RMA_TYPED_DECLS)
#undef GSHMEM_RMA_TYPED_DECLS

/* shmem_putSIZE, ...: element size in bits, untyped buffers. */
#define GSHMEM_RMA_SIZED_DECLS(BITS, BYTES)                                    \
    GSHMEM_DECL_CTX(void, shmem_put##BITS, shmem_ctx_put##BITS,                \
                    (GSHMEM_PARAMS_RMA(void)))                                 \
    GSHMEM_DECL_CTX(void, shmem_iput##BITS, shmem_ctx_iput##BITS,              \
                    (GSHMEM_PARAMS_STRIDED(void)))                             \
    GSHMEM_DECL_CTX(void, shmem_ibput##BITS, shmem_ctx_ibput##BITS,            \
                    (GSHMEM_PARAMS_BLOCKED(void)))                             \
    GSHMEM_DECL_CTX(void, shmem_get##BITS, shmem_ctx_get##BITS,                \
                    (GSHMEM_PARAMS_RMA(void)))                                 \
    GSHMEM_DECL_CTX(void, shmem_iget##BITS, shmem_ctx_iget##BITS,              \
                    (GSHMEM_PARAMS_STRIDED(void)))                             \
    GSHMEM_DECL_CTX(void, shmem_ibget##BITS, shmem_ctx_ibget##BITS,            \
                    (GSHMEM_PARAMS_BLOCKED(void)))                             \
    GSHMEM_DECL_CTX(void, shmem_put##BITS##_nbi, shmem_ctx_put##BITS##_nbi,    \
                    (GSHMEM_PARAMS_RMA(void)))                                 \
    GSHMEM_DECL_CTX(void, shmem_get##BITS##_nbi, shmem_ctx_get##BITS##_nbi,    \
                    (GSHMEM_PARAMS_RMA(void)))
GSHMEM_SIZES(GSHMEM_RMA_SIZED_DECLS)
#undef GSHMEM_RMA_SIZED_DECLS

/* Byte-granular forms (nelems counts bytes). */
GSHMEM_DECL_CTX(void, shmem_putmem, shmem_ctx_putmem, (GSHMEM_PARAMS_RMA(void)))
GSHMEM_DECL_CTX(void, shmem_getmem, shmem_ctx_getmem, (GSHMEM_PARAMS_RMA(void)))
GSHMEM_DECL_CTX(void, shmem_putmem_nbi, shmem_ctx_putmem_nbi,
                (GSHMEM_PARAMS_RMA(void)))
GSHMEM_DECL_CTX(void, shmem_getmem_nbi, shmem_ctx_getmem_nbi,
                (GSHMEM_PARAMS_RMA(void)))
