/*
 * gshmem/api/signal.h - put-with-signal and signal updates.  Rows of
 * gshmem/api.h (no include guard).  shmem_signal_wait_until is in p2p.h,
 * with the other waits.
 */
#define GSHMEM_SIGNAL_TYPED_DECLS(T, N)                                        \
    GSHMEM_DECL_CTX(void, shmem_##N##_put_signal, shmem_ctx_##N##_put_signal,  \
                    (GSHMEM_PARAMS_PUT_SIGNAL(T)))                             \
    GSHMEM_DECL_CTX(void, shmem_##N##_put_signal_nbi,                          \
                    shmem_ctx_##N##_put_signal_nbi,                            \
                    (GSHMEM_PARAMS_PUT_SIGNAL(T)))
GSHMEM_RMA_TYPES(GSHMEM_SIGNAL_TYPED_DECLS)
#undef GSHMEM_SIGNAL_TYPED_DECLS

#define GSHMEM_SIGNAL_SIZED_DECLS(BITS, BYTES)                                 \
    GSHMEM_DECL_CTX(void, shmem_put##BITS##_signal,                            \
                    shmem_ctx_put##BITS##_signal,                              \
                    (GSHMEM_PARAMS_PUT_SIGNAL(void)))                          \
    GSHMEM_DECL_CTX(void, shmem_put##BITS##_signal_nbi,                        \
                    shmem_ctx_put##BITS##_signal_nbi,                          \
                    (GSHMEM_PARAMS_PUT_SIGNAL(void)))
GSHMEM_SIZES(GSHMEM_SIGNAL_SIZED_DECLS)
#undef GSHMEM_SIGNAL_SIZED_DECLS

GSHMEM_DECL_CTX(void, shmem_putmem_signal, shmem_ctx_putmem_signal,
                (GSHMEM_PARAMS_PUT_SIGNAL(void)))
GSHMEM_DECL_CTX(void, shmem_putmem_signal_nbi, shmem_ctx_putmem_signal_nbi,
                (GSHMEM_PARAMS_PUT_SIGNAL(void)))

/* In C11 and C++ the names shmem_signal_add and shmem_signal_set are also
 * type-generic (optional leading ctx); gshmem/generic_*.h defines those
 * after these declarations. */
GSHMEM_DECL_CTX(void, shmem_signal_add, shmem_ctx_signal_add,
                (uint64_t * sig_addr, uint64_t signal, int pe))
GSHMEM_DECL_CTX(void, shmem_signal_set, shmem_ctx_signal_set,
                (uint64_t * sig_addr, uint64_t signal, int pe))
GSHMEM_DECL(uint64_t, shmem_signal_fetch, (const uint64_t *sig_addr))
