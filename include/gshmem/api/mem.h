/*
 * gshmem/api/mem.h - symmetric heap management.  Rows of gshmem/api.h (no
 * include guard).
 */
GSHMEM_DECL(void *, shmem_malloc, (size_t size))
GSHMEM_DECL(void, shmem_free, (void *ptr))
GSHMEM_DECL(void *, shmem_realloc, (void *ptr, size_t size))
GSHMEM_DECL(void *, shmem_align, (size_t alignment, size_t size))
GSHMEM_DECL(void *, shmem_malloc_with_hints, (size_t size, long hints))
GSHMEM_DECL(void *, shmem_calloc, (size_t count, size_t size))

/* Deprecated pre-1.2 names, in no synopsis but still in use. */
GSHMEM_DECL(void *, shmalloc, (size_t size))
GSHMEM_DECL(void, shfree, (void *ptr))
GSHMEM_DECL(void *, shrealloc, (void *ptr, size_t size))
GSHMEM_DECL(void *, shmemalign, (size_t alignment, size_t size))
