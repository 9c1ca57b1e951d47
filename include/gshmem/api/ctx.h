/*
 * gshmem/api/ctx.h - communication contexts and sessions.  Rows of
 * gshmem/api.h (no include guard).
 */
GSHMEM_DECL(int, shmem_ctx_create, (long options, shmem_ctx_t *ctx))
GSHMEM_DECL(int, shmem_team_create_ctx,
            (shmem_team_t team, long options, shmem_ctx_t *ctx))
GSHMEM_DECL(void, shmem_ctx_destroy, (shmem_ctx_t ctx))
GSHMEM_DECL(int, shmem_ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team))

GSHMEM_DECL(void, shmem_ctx_session_start,
            (shmem_ctx_t ctx, long options,
             const shmem_ctx_session_config_t *config, long config_mask))
GSHMEM_DECL(void, shmem_ctx_session_stop, (shmem_ctx_t ctx))
