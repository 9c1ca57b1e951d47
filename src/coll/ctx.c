/* src/coll/ctx.c - the default context. */
#include "coll/ctx.h"
#include "coll/team.h"

/* Exported: SHMEM_CTX_DEFAULT is its address. */
__attribute__((visibility(
    "default"))) struct gshmem_ctx gshmem_ctx_default = {.options = 0, .team = &gshmem_team_world};
