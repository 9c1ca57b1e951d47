/* host/api.h - what every host/ file includes: the public declarations with
 * default visibility (the library is built with -fvisibility=hidden), the
 * core, and the profiling-interface alias.
 *
 * Each routine is defined once as pshmem_NAME; GSI_ALIAS(NAME) makes NAME a
 * weak alias of it, so a tool can define NAME and call pshmem_NAME. */
#ifndef GSI_HOST_API_H
#define GSI_HOST_API_H

/* The library calls routines by their plain names: no type-generic macros. */
#define GSHMEM_NO_GENERIC 1
#pragma GCC visibility push(default)
#include <shmem.h>
#include <shmemx.h>
#include <pshmem.h>
#pragma GCC visibility pop

#include "base/log.h"
#include "coll/ctx.h"
#include "coll/team.h"
#include "core/pe.h"
#include "core/rma.h"
#include "core/wait.h"
#include "init/init.h"

_Noreturn void gsi_fatal_ctx_use(const char *fn, shmem_ctx_t ctx) __attribute__((cold));

/* The world PE of PE `pe` of the context's team (a context made from a
 * team numbers PEs within that team).  The handle is checked first: the
 * default context costs one compare, another one a bounds check and a
 * load of its entry.  SHMEM_CTX_INVALID (undefined for RMA and atomics in
 * the spec), a destroyed context, and one whose team was destroyed end the
 * job with one line. */
static inline int gsi_ctx_pe(const char *fn, shmem_ctx_t ctx, int pe)
{
    const struct gshmem_team *team;

    if (__builtin_expect(ctx == SHMEM_CTX_DEFAULT, 1))
        return pe;
    if (__builtin_expect(!ctx || !gsi_ctx_is_live(ctx), 0))
        gsi_fatal_ctx_use(fn, ctx);
    team = ctx->team;
    if (team == &gshmem_team_world)
        return pe;
    if (__builtin_expect(!gsi_team_is_live(team), 0))
        gsi_fatal_ctx_use(fn, ctx);
    if ((unsigned)pe >= (unsigned)team->n_pes)
        gsi_fatal(fn, "PE %d is out of range: the context's team has PEs 0 to %d", pe,
                  team->n_pes - 1);
    return gsi_team_world_pe(team, pe);
}

#define GSI_ALIAS(name)                                                                      \
    extern __typeof__(p##name) name __attribute__((weak, alias("p" #name)));

#define GSI_STR_(x) #x
#define GSI_STR(x) GSI_STR_(x)

#endif
