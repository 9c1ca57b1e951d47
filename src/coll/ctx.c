/* src/coll/ctx.c - the default context and the table of the others. */
#include "coll/ctx.h"

#include "base/log.h"
#include "coll/team.h"
#include "core/rma.h"

/* Exported: SHMEM_CTX_DEFAULT is its address. */
__attribute__((
    visibility("default"))) struct gshmem_ctx gshmem_ctx_default = {.live = GSI_CTX_LIVE,
                                                                    .options = 0,
                                                                    .team = &gshmem_team_world};

struct gshmem_ctx gsi_ctx_pool[GSI_CTX_POOL];
/* Where the search for a free entry starts: past the one taken last, so
 * the entry dead longest comes first. */
static unsigned pool_next;

void gsi_fatal_ctx(const char *fn, const void *ctx)
{
    gsi_fatal(fn, "context handle %p is not a live context (destroyed, or never created)", ctx);
}

struct gshmem_ctx *gsi_ctx_new(struct gshmem_team *team, long options, int is_private)
{
    /* Threads may create contexts at once: the compare-and-swap gives each
     * entry to one of them. */
    for (unsigned k = 0; k < GSI_CTX_POOL; k++) {
        unsigned i = __atomic_fetch_add(&pool_next, 1, __ATOMIC_RELAXED) % GSI_CTX_POOL;
        struct gshmem_ctx *c = &gsi_ctx_pool[i];
        uint32_t dead = 0;

        if (!__atomic_compare_exchange_n(&c->live, &dead, GSI_CTX_BUILDING, 0, __ATOMIC_ACQUIRE,
                                         __ATOMIC_RELAXED))
            continue;
        c->options = options;
        c->team = team;
        c->session = 0;
        c->is_private = is_private;
        __atomic_store_n(&c->live, GSI_CTX_LIVE, __ATOMIC_RELEASE);
        return c;
    }
    GSI_WARN("no free context: %d contexts exist on this PE (destroy some first)", GSI_CTX_POOL);
    return NULL;
}

void gsi_ctx_free(struct gshmem_ctx *ctx)
{
    __atomic_store_n(&ctx->live, 0, __ATOMIC_RELEASE);
}

void gsi_ctx_drop_team(const char *fn, const struct gshmem_team *team)
{
    int quieted = 0;

    for (int i = 0; i < GSI_CTX_POOL; i++) {
        struct gshmem_ctx *c = &gsi_ctx_pool[i];

        if (__atomic_load_n(&c->live, __ATOMIC_ACQUIRE) != GSI_CTX_LIVE || c->team != team ||
            c->is_private)
            continue;
        /* Destroying a context completes its operations first. */
        if (!quieted++)
            gsi_quiet(fn);
        gsi_ctx_free(c);
    }
}

void gsi_ctx_fini(void)
{
    for (int i = 0; i < GSI_CTX_POOL; i++)
        gsi_ctx_free(&gsi_ctx_pool[i]);
}
