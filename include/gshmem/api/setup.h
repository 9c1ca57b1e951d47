/*
 * gshmem/api/setup.h - library setup, exit and query; thread support;
 * control of profiling.  Rows of gshmem/api.h (no include guard).
 */
GSHMEM_DECL(void, shmem_init, (void))
GSHMEM_DECL(int, shmem_init_thread, (int requested, int *provided))
GSHMEM_DECL(void, shmem_query_thread, (int *provided))
GSHMEM_DECL(void, shmem_query_initialized, (int *initialized))
GSHMEM_DECL(void, shmem_finalize, (void))
GSHMEM_DECL(GSHMEM_NORETURN void, shmem_global_exit, (int status))

GSHMEM_DECL(int, shmem_my_pe, (void))
GSHMEM_DECL(int, shmem_n_pes, (void))
GSHMEM_DECL(int, shmem_pe_accessible, (int pe))
GSHMEM_DECL(int, shmem_addr_accessible, (const void *addr, int pe))
GSHMEM_DECL(void *, shmem_ptr, (const void *dest, int pe))
GSHMEM_DECL(void *, shmem_team_ptr,
            (shmem_team_t team, const void *dest, int pe))
GSHMEM_DECL(void, shmem_info_get_version, (int *major, int *minor))
GSHMEM_DECL(void, shmem_info_get_name, (char *name))

GSHMEM_DECL(void, shmem_pcontrol, (int level, ...))

/* Deprecated: start_pes is in the 1.6 symbol list; _my_pe and _num_pes
 * are older still and in no synopsis, but legacy codes call them. */
GSHMEM_DECL(void, start_pes, (int npes))
GSHMEM_DECL(int, _my_pe, (void))
GSHMEM_DECL(int, _num_pes, (void))
