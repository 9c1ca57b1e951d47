/*
 * pshmem.h - the OpenSHMEM profiling interface: pshmem_X for every routine
 * X of shmem.h (pshmem_long_put, pstart_pes, p_my_pe, pshmalloc, ...).
 *
 * The library defines each routine as pshmem_X and makes X a weak alias of
 * it, so a tool can define X itself and call pshmem_X.  The names come from
 * the same rows as shmem.h (gshmem/api.h), prefixed with `p`.  The C11 and
 * C++ type-generic names are macros and overloads, not routines, so they
 * have no twins.
 */
#ifndef GSHMEM_PSHMEM_H
#define GSHMEM_PSHMEM_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GSHMEM_DECL(ret, name, params) GSHMEM_EXTENSION ret p##name params;
#include "gshmem/api.h"
#undef GSHMEM_DECL

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_PSHMEM_H */
