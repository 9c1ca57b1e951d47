/*
 * gshmem/api/team.h - team management.  Rows of gshmem/api.h (no include
 * guard).
 */
GSHMEM_DECL(int, shmem_team_my_pe, (shmem_team_t team))
GSHMEM_DECL(int, shmem_team_n_pes, (shmem_team_t team))
GSHMEM_DECL(int, shmem_team_get_config,
            (shmem_team_t team, long config_mask, shmem_team_config_t *config))
GSHMEM_DECL(int, shmem_team_translate_pe,
            (shmem_team_t src_team, int src_pe, shmem_team_t dest_team))
GSHMEM_DECL(int, shmem_team_split_strided,
            (shmem_team_t parent_team, int start, int stride, int size,
             const shmem_team_config_t *config, long config_mask,
             shmem_team_t *new_team))
GSHMEM_DECL(int, shmem_team_split_2d,
            (shmem_team_t parent_team, int xrange,
             const shmem_team_config_t *xaxis_config, long xaxis_mask,
             shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
             long yaxis_mask, shmem_team_t *yaxis_team))
GSHMEM_DECL(void, shmem_team_destroy, (shmem_team_t team))
