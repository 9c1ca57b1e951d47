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

/* The world PE of PE `pe` of the context's team (a context made from a
 * team numbers PEs within that team). */
static inline int gsi_ctx_pe(const char *fn, shmem_ctx_t ctx, int pe)
{
    const struct gshmem_team *team = ctx ? ctx->team : NULL;

    if (!team || team == &gshmem_team_world)
        return pe;
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
