/*
 * constants.c - the constants and handles of shmem.h have the values the
 * library relies on (compile-only; headers.sh compiles it as C11 and C++).
 */
#include <gshmem.h>
#include <mpp/shmem.h>

#ifdef __cplusplus
#define CHECK(cond) static_assert(cond, #cond)
#else
#define CHECK(cond) _Static_assert(cond, #cond)
#endif

CHECK(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION == 6);
CHECK(SHMEM_MAX_NAME_LEN == 256);
CHECK(sizeof(SHMEM_VENDOR_STRING) <= SHMEM_MAX_NAME_LEN);
CHECK(GSHMEM_VERSION_MAJOR == 0 && GSHMEM_VERSION_MINOR == 1 &&
      GSHMEM_VERSION_PATCH == 0);

CHECK(SHMEM_THREAD_SINGLE == 0 && SHMEM_THREAD_FUNNELED == 1 &&
      SHMEM_THREAD_SERIALIZED == 2 && SHMEM_THREAD_MULTIPLE == 3);
CHECK(SHMEM_CMP_EQ == 1 && SHMEM_CMP_NE == 2 && SHMEM_CMP_GT == 3 &&
      SHMEM_CMP_LE == 4 && SHMEM_CMP_LT == 5 && SHMEM_CMP_GE == 6);
CHECK(SHMEM_SIGNAL_SET == 0 && SHMEM_SIGNAL_ADD == 1);
CHECK(SHMEM_CTX_SERIALIZED == 1L && SHMEM_CTX_PRIVATE == 2L &&
      SHMEM_CTX_NOSTORE == 4L);
CHECK(SHMEM_MALLOC_ATOMICS_REMOTE == 1L && SHMEM_MALLOC_SIGNAL_REMOTE == 2L);
CHECK(SHMEM_TEAM_NUM_CONTEXTS == 1L);
CHECK(SHMEM_CTX_SESSION_TOTAL_OPS == 1L && SHMEM_CTX_SESSION_BATCH == 1L);

CHECK(SHMEM_SYNC_VALUE == 0L && SHMEM_SYNC_SIZE == 64);
CHECK(SHMEM_BARRIER_SYNC_SIZE == 64 && SHMEM_BCAST_SYNC_SIZE == 64 &&
      SHMEM_COLLECT_SYNC_SIZE == 64 && SHMEM_REDUCE_SYNC_SIZE == 64 &&
      SHMEM_ALLTOALL_SYNC_SIZE == 64 && SHMEM_ALLTOALLS_SYNC_SIZE == 64);
CHECK(SHMEM_REDUCE_MIN_WRKDATA_SIZE == 16);

/* Deprecated spellings equal the current ones. */
CHECK(_SHMEM_MAJOR_VERSION == SHMEM_MAJOR_VERSION);
CHECK(_SHMEM_MINOR_VERSION == SHMEM_MINOR_VERSION);
CHECK(_SHMEM_MAX_NAME_LEN == SHMEM_MAX_NAME_LEN);
CHECK(sizeof(_SHMEM_VENDOR_STRING) == sizeof(SHMEM_VENDOR_STRING));
CHECK(_SHMEM_THREAD_SINGLE == SHMEM_THREAD_SINGLE &&
      _SHMEM_THREAD_FUNNELED == SHMEM_THREAD_FUNNELED &&
      _SHMEM_THREAD_SERIALIZED == SHMEM_THREAD_SERIALIZED &&
      _SHMEM_THREAD_MULTIPLE == SHMEM_THREAD_MULTIPLE);
CHECK(_SHMEM_CMP_EQ == SHMEM_CMP_EQ && _SHMEM_CMP_NE == SHMEM_CMP_NE &&
      _SHMEM_CMP_GT == SHMEM_CMP_GT && _SHMEM_CMP_LE == SHMEM_CMP_LE &&
      _SHMEM_CMP_LT == SHMEM_CMP_LT && _SHMEM_CMP_GE == SHMEM_CMP_GE);
CHECK(_SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE &&
      _SHMEM_SYNC_SIZE == SHMEM_SYNC_SIZE);
CHECK(_SHMEM_BARRIER_SYNC_SIZE == SHMEM_BARRIER_SYNC_SIZE &&
      _SHMEM_BCAST_SYNC_SIZE == SHMEM_BCAST_SYNC_SIZE &&
      _SHMEM_COLLECT_SYNC_SIZE == SHMEM_COLLECT_SYNC_SIZE &&
      _SHMEM_REDUCE_SYNC_SIZE == SHMEM_REDUCE_SYNC_SIZE &&
      _SHMEM_ALLTOALL_SYNC_SIZE == SHMEM_ALLTOALL_SYNC_SIZE &&
      _SHMEM_ALLTOALLS_SYNC_SIZE == SHMEM_ALLTOALLS_SYNC_SIZE);
CHECK(_SHMEM_REDUCE_MIN_WRKDATA_SIZE == SHMEM_REDUCE_MIN_WRKDATA_SIZE);

/* Handles: the predefined ones are the library's objects, the invalid ones
 * null; the configuration structs have the spec's members. */
shmem_ctx_t check_ctx_default(void);
shmem_ctx_t check_ctx_default(void)
{
    return SHMEM_CTX_DEFAULT;
}
shmem_team_t check_team_world(void);
shmem_team_t check_team_world(void)
{
    return SHMEM_TEAM_WORLD;
}
shmem_team_t check_team_shared(void);
shmem_team_t check_team_shared(void)
{
    return SHMEM_TEAM_SHARED;
}
int check_invalid(void);
int check_invalid(void)
{
    shmem_team_config_t team_config = {1};
    shmem_ctx_session_config_t session_config = {8};
    return SHMEM_CTX_INVALID == 0 && SHMEM_TEAM_INVALID == 0 &&
           team_config.num_contexts == 1 && session_config.total_ops == 8;
}
