/*
 * gshmem/types.h - the handle types of OpenSHMEM 1.6 (spec "Library
 * Handles") and the predefined teams and context they point at.
 *
 * Handles are pointers to incomplete structs so that a wrong handle is a
 * compile error, the predefined ones are addresses of library objects (no
 * load to find them), and the invalid ones are null.
 */
#ifndef GSHMEM_TYPES_H
#define GSHMEM_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gshmem_ctx *shmem_ctx_t;
typedef struct gshmem_team *shmem_team_t;

typedef struct {
    int num_contexts;
} shmem_team_config_t;

typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;

/* Defined by the library. */
extern struct gshmem_ctx gshmem_ctx_default;
extern struct gshmem_team gshmem_team_world, gshmem_team_shared,
    gshmem_team_node;

#ifdef __cplusplus
}
#endif

#define SHMEM_CTX_DEFAULT (&gshmem_ctx_default)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

#define SHMEM_TEAM_WORLD (&gshmem_team_world)
#define SHMEM_TEAM_SHARED (&gshmem_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

#endif /* GSHMEM_TYPES_H */
