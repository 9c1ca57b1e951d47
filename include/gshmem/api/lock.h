/*
 * gshmem/api/lock.h - distributed locking on a symmetric long.  Rows of
 * gshmem/api.h (no include guard).
 */
GSHMEM_DECL(void, shmem_set_lock, (long *lock))
GSHMEM_DECL(void, shmem_clear_lock, (long *lock))
GSHMEM_DECL(int, shmem_test_lock, (long *lock))
