/* host/ctx.c - Communication Management (contexts) and Session Routines. */
#include "api.h"

#define GSI_CTX_OPTIONS (SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE)

static int create_ctx(const char *fn, shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    struct gshmem_ctx *c;

    gsi_check_init(fn);
    if (!ctx)
        gsi_fatal(fn, "ctx is NULL");
    *ctx = SHMEM_CTX_INVALID;
    team = gsi_team_check(fn, team);
    if (team == SHMEM_TEAM_INVALID || team->my_pe < 0)
        return 1; /* not a member: no context, and not an error */
    if (options & ~(long)GSI_CTX_OPTIONS)
        gsi_fatal(fn,
                  "unknown options %#lx (expected SHMEM_CTX_SERIALIZED, _PRIVATE, _NOSTORE)",
                  options);
    c = gsi_ctx_new(team, options, (options & SHMEM_CTX_PRIVATE) != 0);
    if (!c)
        return 1; /* out of resources: a nonzero return, as the spec allows */
    *ctx = c;
    return 0;
}

int pshmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    return create_ctx("shmem_ctx_create", SHMEM_TEAM_WORLD, options, ctx);
}
GSI_ALIAS(shmem_ctx_create)

int pshmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    return create_ctx("shmem_team_create_ctx", team, options, ctx);
}
GSI_ALIAS(shmem_team_create_ctx)

void pshmem_ctx_destroy(shmem_ctx_t ctx)
{
    const char *fn = "shmem_ctx_destroy";

    gsi_check_init(fn);
    if (ctx == SHMEM_CTX_INVALID)
        return; /* "no operation is performed" */
    if (ctx == SHMEM_CTX_DEFAULT)
        gsi_fatal(fn, "SHMEM_CTX_DEFAULT cannot be destroyed");
    /* A second destroy, or a handle that never was a context. */
    gsi_ctx_check(fn, ctx);
    gsi_quiet(fn);
    gsi_ctx_free(ctx);
}
GSI_ALIAS(shmem_ctx_destroy)

int pshmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    const char *fn = "shmem_ctx_get_team";

    gsi_check_init(fn);
    ctx = gsi_ctx_check(fn, ctx);
    if (!team)
        return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}
GSI_ALIAS(shmem_ctx_get_team)

/* Sessions are hints that a burst of operations follows; the P2P path
 * issues each operation at once, so a session only records its state. */
void pshmem_ctx_session_start(shmem_ctx_t ctx, long options,
                              const shmem_ctx_session_config_t *config, long config_mask)
{
    const char *fn = "shmem_ctx_session_start";

    (void)options, (void)config, (void)config_mask;
    gsi_check_init(fn);
    ctx = gsi_ctx_check(fn, ctx);
    if (ctx != SHMEM_CTX_INVALID)
        ctx->session = 1;
}
GSI_ALIAS(shmem_ctx_session_start)

void pshmem_ctx_session_stop(shmem_ctx_t ctx)
{
    const char *fn = "shmem_ctx_session_stop";

    gsi_check_init(fn);
    ctx = gsi_ctx_check(fn, ctx);
    if (ctx == SHMEM_CTX_INVALID)
        return;
    /* Ending a session completes what it issued. */
    gsi_quiet(fn);
    ctx->session = 0;
}
GSI_ALIAS(shmem_ctx_session_stop)

/* The cold end of gsi_ctx_pe (host/api.h): what was wrong with the handle. */
void gsi_fatal_ctx_use(const char *fn, shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID)
        gsi_fatal(fn, "ctx is SHMEM_CTX_INVALID: no context to communicate on");
    if (!gsi_ctx_is_live(ctx))
        gsi_fatal_ctx(fn, ctx);
    gsi_fatal(fn,
              "the team of context %p was destroyed (destroy a private context before "
              "its team)",
              (void *)ctx);
}
