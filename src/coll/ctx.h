/* src/coll/ctx.h - communication contexts.  On the P2P path every operation
 * completes as it is issued, so a context carries its options and team for
 * the transports and for shmem_ctx_get_team.
 *
 * Contexts live in a table of the library, as teams do (src/coll/team.h),
 * so that a handle is checked before anything is read through it: a handle
 * is a context only if it is SHMEM_CTX_DEFAULT or the address of an entry
 * of the table, and that entry says GSI_CTX_LIVE.  Entries are taken in
 * turn, so a destroyed context's entry stays dead (and its handle is
 * reported) until the table has come round to it again. */
#ifndef GSI_CTX_H
#define GSI_CTX_H

#include <stdint.h>

struct gshmem_team;

#define GSI_CTX_LIVE 0x63747831u /* "ctx1" */
#define GSI_CTX_BUILDING 1u      /* taken from the table, being filled in */
/* Contexts that can exist at once besides the default one; shmem_ctx_create
 * returns nonzero (out of resources, as the spec allows) beyond that. */
#define GSI_CTX_POOL 1024

struct gshmem_ctx {
    uint32_t live; /* GSI_CTX_LIVE from creation to destruction */
    long options;
    struct gshmem_team *team;
    int session;    /* inside shmem_ctx_session_start/stop */
    int is_private; /* SHMEM_CTX_PRIVATE: the program destroys it, not its team */
};

extern struct gshmem_ctx gshmem_ctx_default;
extern struct gshmem_ctx gsi_ctx_pool[GSI_CTX_POOL];

_Noreturn void gsi_fatal_ctx(const char *fn, const void *ctx) __attribute__((cold));

/* Whether a handle is a context that exists (SHMEM_CTX_INVALID is not). */
static inline int gsi_ctx_is_live(const struct gshmem_ctx *ctx)
{
    uintptr_t off = (uintptr_t)ctx - (uintptr_t)gsi_ctx_pool;

    if (ctx == &gshmem_ctx_default)
        return 1;
    if (off >= sizeof(gsi_ctx_pool) || off % sizeof(gsi_ctx_pool[0]))
        return 0;
    return __atomic_load_n(&ctx->live, __ATOMIC_ACQUIRE) == GSI_CTX_LIVE;
}

/* The context behind a handle: NULL for SHMEM_CTX_INVALID (NULL), which
 * the routines that accept it answer as the spec says; a handle that is no
 * live context (destroyed, never created, not a context) ends the job
 * with one line naming `fn`. */
static inline struct gshmem_ctx *gsi_ctx_check(const char *fn, struct gshmem_ctx *ctx)
{
    if (ctx && __builtin_expect(!gsi_ctx_is_live(ctx), 0))
        gsi_fatal_ctx(fn, ctx);
    return ctx;
}

/* A new context on `team` (live, this PE a member); NULL when the table is
 * full.  Thread-safe. */
struct gshmem_ctx *gsi_ctx_new(struct gshmem_team *team, long options, int is_private);

/* The entry is dead from here on; the caller has completed its operations. */
void gsi_ctx_free(struct gshmem_ctx *ctx);

/* Destroy, after a quiet, every shareable context (not SHMEM_CTX_PRIVATE)
 * made from `team`: shmem_team_destroy does, as the spec says. */
void gsi_ctx_drop_team(const char *fn, const struct gshmem_team *team);

/* Drop every context (finalize); a later shmem_init starts with none. */
void gsi_ctx_fini(void);

#endif
