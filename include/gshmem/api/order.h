/*
 * gshmem/api/order.h - memory ordering (fence, quiet, per-PE quiet), and
 * the cache management routines removed in 1.5.  Rows of gshmem/api.h (no
 * include guard).
 */
GSHMEM_DECL(void, shmem_fence, (void))
GSHMEM_DECL(void, shmem_ctx_fence, (shmem_ctx_t ctx))
GSHMEM_DECL(void, shmem_quiet, (void))
GSHMEM_DECL(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
GSHMEM_DECL_CTX(void, shmem_pe_quiet, shmem_ctx_pe_quiet,
                (const int *target_pes, size_t npes))

/* Removed in 1.5 (last in 1.4); declared so legacy codes still build. */
GSHMEM_DECL(void, shmem_clear_cache_inv, (void))
GSHMEM_DECL(void, shmem_set_cache_inv, (void))
GSHMEM_DECL(void, shmem_clear_cache_line_inv, (void *dest))
GSHMEM_DECL(void, shmem_set_cache_line_inv, (void *dest))
GSHMEM_DECL(void, shmem_udcflush, (void))
GSHMEM_DECL(void, shmem_udcflush_line, (void *dest))
